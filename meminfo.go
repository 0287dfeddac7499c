package batchlas

// MemInfo returns the free and the total memory of the queue's device in bytes; both are 0
// on the host.
func (q *Queue) MemInfo() (free, total int64, err error) {
	if err := q.usable("MemInfo"); err != nil {
		return 0, 0, err
	}
	if m, ok := q.eng.(interface{ memInfo() (int64, int64, error) }); ok {
		return m.memInfo()
	}
	return 0, 0, nil
}
