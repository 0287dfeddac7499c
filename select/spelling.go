package selection

import (
	"fmt"
	"strconv"
	"strings"
)

// Field is one integer parameter of a spelling: panel=8 in "lpanel:panel=8". A positional
// value ("lpanel:8") has an empty Name until it is matched against a candidate.
type Field struct {
	Name  string
	Value int
}

// Spelling names one family of an op and its parameters: family[:field=value]... It is the
// one name a choice has in tables, pins, traces, coverage rows and test names.
type Spelling struct {
	Family string
	Fields []Field
}

// ParseSpelling reads "family[:field=value]..." (case-folded and trimmed around every part).
// Values are integers; "family:8" gives a positional field, matched by position.
func ParseSpelling(s string) (Spelling, error) {
	parts := strings.Split(strings.ToLower(strings.TrimSpace(s)), ":")
	sp := Spelling{Family: strings.TrimSpace(parts[0])}
	if !isName(sp.Family) {
		return Spelling{}, fmt.Errorf("spelling %q: family %q is not a name", s, sp.Family)
	}
	for _, p := range parts[1:] {
		name, val, named := strings.Cut(strings.TrimSpace(p), "=")
		if !named {
			name, val = "", name
		}
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		if named && !isName(name) {
			return Spelling{}, fmt.Errorf("spelling %q: field %q is not a name", s, name)
		}
		v, err := strconv.Atoi(val)
		if err != nil {
			return Spelling{}, fmt.Errorf("spelling %q: value %q of field %q is not an integer", s, val, name)
		}
		sp.Fields = append(sp.Fields, Field{Name: name, Value: v})
	}
	return sp, nil
}

// MustSpelling is ParseSpelling for spellings written in the program; it panics on a bad one.
func MustSpelling(s string) Spelling {
	sp, err := ParseSpelling(s)
	if err != nil {
		panic(err)
	}
	return sp
}

func (s Spelling) String() string {
	var b strings.Builder
	b.WriteString(s.Family)
	for _, f := range s.Fields {
		b.WriteByte(':')
		if f.Name != "" {
			b.WriteString(f.Name)
			b.WriteByte('=')
		}
		b.WriteString(strconv.Itoa(f.Value))
	}
	return b.String()
}

// Matches reports whether s names the candidate c: the same family, and every field of s
// equal to c's field of that name (or, positional, at that position). Fields that s leaves
// out match anything.
func (s Spelling) Matches(c Spelling) bool {
	if s.Family != c.Family || len(s.Fields) > len(c.Fields) {
		return false
	}
	for i, f := range s.Fields {
		if f.Name == "" {
			if c.Fields[i].Value != f.Value {
				return false
			}
			continue
		}
		found := false
		for _, g := range c.Fields {
			if g.Name == f.Name {
				found = g.Value == f.Value
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Resolve is the first candidate, in list order, that s matches; -1 when none does. A
// spelling that leaves fields out picks the first family member it matches.
func Resolve(s Spelling, cands []Candidate) int {
	for i, c := range cands {
		if s.Matches(c.Spelling) {
			return i
		}
	}
	return -1
}

// resolveExact is Resolve for table entries, which spell every field.
func resolveExact(s Spelling, cands []Candidate) int {
	for i, c := range cands {
		if len(s.Fields) == len(c.Spelling.Fields) && s.Matches(c.Spelling) {
			return i
		}
	}
	return -1
}

func isName(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z') {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}
