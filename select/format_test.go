package selection

import (
	"math"
	"testing"
)

func TestRank(t *testing.T) {
	e := func(s string, ms float64) Entry { return Entry{Spelling: MustSpelling(s), Time: ms} }
	order := []string{"lpanel:panel=8", "cta", "blocked", "vendor"}
	got := Rank([]Entry{e("vendor", 13.74), e("lpanel:panel=8", 14.84), e("blocked", 14.10), e("cta", 30)}, order)
	want := []string{"blocked", "vendor", "lpanel:panel=8", "cta"}
	for i, w := range want {
		if got[i].Spelling.String() != w {
			t.Fatalf("Rank = %v, want %v", got, want)
		}
	}
	tb := &Table{Rows: []Row{{Entries: got}}}
	if err := tb.CheckRanks(); err != nil {
		t.Errorf("a ranked row fails CheckRanks: %v", err)
	}
	untimed := []Entry{{Spelling: MustSpelling("host"), Time: math.NaN()}, {Spelling: MustSpelling("vendor"), Time: math.NaN()}}
	if r := Rank(untimed, []string{"vendor", "host"}); r[0].Spelling.Family != "host" {
		t.Errorf("untimed entries reordered: %v", r)
	}
}

func TestFormatRoundTrip(t *testing.T) {
	tb, err := ParseTable(seedTable)
	if err != nil {
		t.Fatal(err)
	}
	again, err := ParseTable(tb.Format())
	if err != nil {
		t.Fatalf("Format does not parse: %v\n%s", err, tb.Format())
	}
	if again.Format() != tb.Format() {
		t.Errorf("round trip changed the table:\n%s\nvs\n%s", tb.Format(), again.Format())
	}
}
