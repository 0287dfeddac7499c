package selection

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Rank orders measured candidates for a row: by time, except that candidates within
// TieRatio of the best remaining one are tied and keep the candidate-list order (order lists
// the spellings in that order). A tie therefore goes to the native family listed first rather
// than to a vendor call that is at most 3% faster. Untimed entries keep their order.
func Rank(entries []Entry, order []string) []Entry {
	pos := func(e Entry) int {
		if i := slices.Index(order, e.Spelling.String()); i >= 0 {
			return i
		}
		return len(order)
	}
	rest := slices.Clone(entries)
	if len(rest) == 0 || math.IsNaN(rest[0].Time) {
		return rest
	}
	var out []Entry
	for len(rest) > 0 {
		best := slices.MinFunc(rest, func(a, b Entry) int { return cmp.Compare(a.Time, b.Time) }).Time
		var tied, later []Entry
		for _, e := range rest {
			if e.Time <= best*TieRatio {
				tied = append(tied, e)
			} else {
				later = append(later, e)
			}
		}
		slices.SortStableFunc(tied, func(a, b Entry) int { return pos(a) - pos(b) })
		out, rest = append(out, tied...), later
	}
	return out
}

// Format writes t in the table format that ParseTable reads: the header words (op and
// device first, then the rest sorted), the keys line, and the rows.
func (t *Table) Format() string {
	var b strings.Builder
	head := []string{"op=" + t.Op, "device=" + t.Device}
	var other []string
	for k, v := range t.Header {
		if k != "op" && k != "device" && k != "source" {
			other = append(other, k+"="+v)
		}
	}
	slices.Sort(other)
	b.WriteString("# " + strings.Join(append(head, other...), " ") + "\n")
	if src, ok := t.Header["source"]; ok {
		b.WriteString("# source=" + src + "\n")
	}
	b.WriteString("# keys:")
	for _, k := range t.Keys {
		b.WriteString(" " + k.Name)
		switch {
		case k.Exact:
			b.WriteString(":exact")
		case k.Weight == 1:
			b.WriteString(":log")
		default:
			b.WriteString(":log:" + strconv.FormatFloat(k.Weight, 'g', -1, 64))
		}
	}
	b.WriteByte('\n')
	for _, r := range t.Rows {
		for i, k := range t.Keys {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(k.Name + "=" + r.Values[i])
		}
		for _, e := range r.Entries {
			b.WriteString(" | " + e.Spelling.String() + " ")
			if math.IsNaN(e.Time) {
				b.WriteString("-")
			} else {
				b.WriteString(strconv.FormatFloat(e.Time, 'g', 4, 64))
			}
		}
		if r.Tier != "" {
			b.WriteString(" # " + r.Tier)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
