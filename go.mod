module nimbot

go 1.26.8
