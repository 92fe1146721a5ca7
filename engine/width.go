package engine

import (
	"unicode"
	"unicode/utf8"
)

// wideRanges are the blocks whose characters a monospaced display draws two
// columns wide: the East Asian Width property's Wide (W) and Fullwidth (F)
// characters of Unicode Standard Annex #11 (https://www.unicode.org/reports/tr11/),
// the rule terminals' wcwidth follows. A table's cells are phrases in the
// reader's language, and a Japanese heading (山, ニム和) padded by its
// rune count pushes the columns under it out of line.
//
// The list is by block, not the annex's every code point: it covers the
// scripts and symbols the catalog writes (CJK ideographs and punctuation,
// Hiragana, Katakana, Hangul, fullwidth forms) and the common emoji
// blocks, and leaves out the scattered wide symbols elsewhere (⌚, ⭐),
// which no table uses and which terminals disagree on anyway. Sorted, so a
// binary search finds a rune's block.
var wideRanges = [...][2]rune{
	{0x1100, 0x115F},   // Hangul Jamo initial consonants
	{0x2E80, 0x303E},   // CJK radicals, Kangxi radicals, CJK symbols and punctuation
	{0x3041, 0x33FF},   // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, enclosed CJK, CJK compatibility
	{0x3400, 0x4DBF},   // CJK unified ideographs extension A
	{0x4E00, 0x9FFF},   // CJK unified ideographs
	{0xA000, 0xA4CF},   // Yi syllables and radicals
	{0xA960, 0xA97F},   // Hangul Jamo extended A
	{0xAC00, 0xD7A3},   // Hangul syllables
	{0xF900, 0xFAFF},   // CJK compatibility ideographs
	{0xFE10, 0xFE19},   // vertical forms
	{0xFE30, 0xFE6F},   // CJK compatibility forms, small form variants
	{0xFF00, 0xFF60},   // fullwidth ASCII variants and brackets
	{0xFFE0, 0xFFE6},   // fullwidth signs (￥, ￡)
	{0x16FE0, 0x1B2FF}, // Tangut, Khitan, Nushu, kana supplements
	{0x1F200, 0x1F2FF}, // enclosed ideographic supplement
	{0x1F300, 0x1F64F}, // miscellaneous symbols and pictographs, emoticons
	{0x1F900, 0x1F9FF}, // supplemental symbols and pictographs
	{0x20000, 0x3FFFD}, // CJK unified ideographs extensions B and on
}

// runeWidth is how many columns r takes in a monospaced display: 0 for a
// combining mark or an invisible format character (they join the character
// before them), 2 for a wide or fullwidth character (wideRanges), else 1.
func runeWidth(r rune) int {
	if r < 0x300 {
		return 1 // Latin, the common case, before any table
	}
	if unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) {
		return 0
	}
	lo, hi := 0, len(wideRanges)
	for lo < hi {
		m := (lo + hi) / 2
		switch {
		case r < wideRanges[m][0]:
			hi = m
		case r > wideRanges[m][1]:
			lo = m + 1
		default:
			return 2
		}
	}
	return 1
}

// DisplayWidth is how many columns s takes in a monospaced display: what a
// table pads its cells by, so columns line up in a terminal and in a
// Discord code block whatever script the cells are written in.
func DisplayWidth(s string) int {
	n := 0
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		n += runeWidth(r)
		s = s[size:]
	}
	return n
}
