// Package selection chooses, for each call of an operation, which of the op's families runs
// it. It is generic over the op: an op describes its families as Candidates (a spelling and
// whether it is a vendor library) and answers can_run through a callback; selection does the
// rest in one place: pins, the measured tables of tuned/, borrowing another device's table,
// the last-resort order, the trace and the coverage rows.
//
// The rules, in the order Choose applies them:
//
//  1. A pin (Pin, or BATCHLAS_<OP>_ROUTE) names the family: a spelling such as
//     "lpanel:panel=8", or a class word: "native" (the best runnable non-vendor family),
//     "vendor", or "auto". A pin that does not name a family of the op, or whose family
//     cannot run the call, is an error; a class word with nothing runnable in its class falls
//     back to auto with a warning.
//  2. For each table in borrow order, the nearest row to the call's key; the first candidate
//     of that row that can run wins.
//  3. The first runnable candidate in the op's last-resort order.
//  4. Otherwise there is no route: a *MissError (wrapping ErrNoRoute).
//
// can_run decides correctness only; speed lives only in the tables. Choose only chooses; the
// caller reports a launched call with Library.Report (its trace line and coverage row) and a
// call with no route with Library.Miss. Sizing a call chooses without reporting.
//
// The tuner builds tables with Rank (the 3% tie rule) and Table.Format.
package selection
