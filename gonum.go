package batchlas

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/cblas128"
	"gonum.org/v1/gonum/blas/cblas64"
	"gonum.org/v1/gonum/mat"
)

// Conversions to and from gonum's types, one matrix of a batch (matrix b) or the whole batch.
//
// gonum's matrices are row-major with a row stride; these functions transpose on the host, so
// that no caller writes index arithmetic. A one-matrix call moves only matrix b's storage to
// or from the device; a whole-batch call moves the batch in one copy. Every element round
// trips bitwise. gonum has no empty matrices, so the To functions of mat types refuse a
// matrix with no rows or no columns; blas General values may be empty.

// FromDense copies d into matrix b of m; d must be m.Rows() by m.Cols().
func FromDense(m *Matrix[float64], b int, d *mat.Dense) error {
	const op = "FromDense"
	if d == nil {
		return argErr(op, "d", "nil matrix")
	}
	g := d.RawMatrix()
	if err := sameShape(op, "d", m, g.Rows, g.Cols); err != nil {
		return err
	}
	return m.putMatrix(op, "d", b, RowMajor, g.Data, g.Stride)
}

// ToDense returns matrix b of m as a new mat.Dense.
func ToDense(m *Matrix[float64], b int) (*mat.Dense, error) {
	const op = "ToDense"
	if err := nonEmpty(op, m); err != nil {
		return nil, err
	}
	data, err := m.getMatrix(op, b, RowMajor, nil, 0)
	if err != nil {
		return nil, err
	}
	return mat.NewDense(m.rows, m.cols, data), nil
}

// FromDenses copies ds[b] into matrix b of m for every b, in one copy to the device;
// len(ds) must be m.Batch() and each ds[b] m.Rows() by m.Cols().
func FromDenses(m *Matrix[float64], ds []*mat.Dense) error {
	const op = "FromDenses"
	gs := make([]blas64.General, len(ds))
	for b, d := range ds {
		if d == nil {
			return argErr(op, "ds", "ds[%d] is nil", b)
		}
		gs[b] = d.RawMatrix()
	}
	if err := batchShape(op, "ds", m, len(gs), func(b int) (int, int) { return gs[b].Rows, gs[b].Cols }); err != nil {
		return err
	}
	return m.putAll(func(b int) ([]float64, int) { return gs[b].Data, gs[b].Stride })
}

// ToDenses returns every matrix of m as a new mat.Dense, in one copy from the device.
func ToDenses(m *Matrix[float64]) ([]*mat.Dense, error) {
	data, err := toAll("ToDenses", m)
	if err != nil {
		return nil, err
	}
	ds := make([]*mat.Dense, len(data))
	for b := range ds {
		ds[b] = mat.NewDense(m.rows, m.cols, data[b])
	}
	return ds, nil
}

// FromSymDense copies the symmetric s into matrix b of m, both triangles; m's matrices must
// be square of s's order.
func FromSymDense(m *Matrix[float64], b int, s *mat.SymDense) error {
	const op = "FromSymDense"
	if s == nil {
		return argErr(op, "s", "nil matrix")
	}
	n := s.SymmetricDim()
	if err := sameShape(op, "s", m, n, n); err != nil {
		return err
	}
	return m.putMatrix(op, "s", b, RowMajor, fullSym(s), n)
}

// ToSymDense returns matrix b of m as a new mat.SymDense made from its uplo triangle (the
// other triangle is not read).
func ToSymDense(m *Matrix[float64], b int, uplo Uplo) (*mat.SymDense, error) {
	const op = "ToSymDense"
	if err := symArgs(op, m, uplo); err != nil {
		return nil, err
	}
	data, err := m.getMatrix(op, b, RowMajor, nil, 0)
	if err != nil {
		return nil, err
	}
	return symFrom(m.rows, data, uplo), nil
}

// FromSymDenses copies ss[b] into matrix b of m for every b, both triangles, in one copy to
// the device.
func FromSymDenses(m *Matrix[float64], ss []*mat.SymDense) error {
	const op = "FromSymDenses"
	full := make([][]float64, len(ss))
	for b, s := range ss {
		if s == nil {
			return argErr(op, "ss", "ss[%d] is nil", b)
		}
	}
	dim := func(b int) (int, int) { n := ss[b].SymmetricDim(); return n, n }
	if err := batchShape(op, "ss", m, len(ss), dim); err != nil {
		return err
	}
	for b, s := range ss {
		full[b] = fullSym(s)
	}
	return m.putAll(func(b int) ([]float64, int) { return full[b], m.cols })
}

// ToSymDenses returns every matrix of m as a new mat.SymDense made from its uplo triangle,
// in one copy from the device.
func ToSymDenses(m *Matrix[float64], uplo Uplo) ([]*mat.SymDense, error) {
	const op = "ToSymDenses"
	if err := symArgs(op, m, uplo); err != nil {
		return nil, err
	}
	data, err := toAll(op, m)
	if err != nil {
		return nil, err
	}
	ss := make([]*mat.SymDense, len(data))
	for b := range ss {
		ss[b] = symFrom(m.rows, data[b], uplo)
	}
	return ss, nil
}

// FromCDense copies c into matrix b of m; c must be m.Rows() by m.Cols().
func FromCDense(m *Matrix[complex128], b int, c *mat.CDense) error {
	const op = "FromCDense"
	if c == nil {
		return argErr(op, "c", "nil matrix")
	}
	g := c.RawCMatrix()
	if err := sameShape(op, "c", m, g.Rows, g.Cols); err != nil {
		return err
	}
	return m.putMatrix(op, "c", b, RowMajor, g.Data, g.Stride)
}

// ToCDense returns matrix b of m as a new mat.CDense.
func ToCDense(m *Matrix[complex128], b int) (*mat.CDense, error) {
	const op = "ToCDense"
	if err := nonEmpty(op, m); err != nil {
		return nil, err
	}
	data, err := m.getMatrix(op, b, RowMajor, nil, 0)
	if err != nil {
		return nil, err
	}
	return mat.NewCDense(m.rows, m.cols, data), nil
}

// FromCDenses copies cs[b] into matrix b of m for every b, in one copy to the device.
func FromCDenses(m *Matrix[complex128], cs []*mat.CDense) error {
	const op = "FromCDenses"
	gs := make([]cblas128.General, len(cs))
	for b, c := range cs {
		if c == nil {
			return argErr(op, "cs", "cs[%d] is nil", b)
		}
		gs[b] = c.RawCMatrix()
	}
	if err := batchShape(op, "cs", m, len(gs), func(b int) (int, int) { return gs[b].Rows, gs[b].Cols }); err != nil {
		return err
	}
	return m.putAll(func(b int) ([]complex128, int) { return gs[b].Data, gs[b].Stride })
}

// ToCDenses returns every matrix of m as a new mat.CDense, in one copy from the device.
func ToCDenses(m *Matrix[complex128]) ([]*mat.CDense, error) {
	data, err := toAll("ToCDenses", m)
	if err != nil {
		return nil, err
	}
	cs := make([]*mat.CDense, len(data))
	for b := range cs {
		cs[b] = mat.NewCDense(m.rows, m.cols, data[b])
	}
	return cs, nil
}

// FromGeneral64 copies g into matrix b of m; g must be m.Rows() by m.Cols().
func FromGeneral64(m *Matrix[float64], b int, g blas64.General) error {
	return fromGeneral("FromGeneral64", m, b, g.Rows, g.Cols, g.Stride, g.Data)
}

// ToGeneral64 returns matrix b of m as a new, packed blas64.General.
func ToGeneral64(m *Matrix[float64], b int) (blas64.General, error) {
	data, err := m.getMatrix("ToGeneral64", b, RowMajor, nil, 0)
	if err != nil {
		return blas64.General{}, err
	}
	return blas64.General{Rows: m.rows, Cols: m.cols, Stride: max(1, m.cols), Data: data}, nil
}

// FromGeneral32 copies g into matrix b of m; g must be m.Rows() by m.Cols().
func FromGeneral32(m *Matrix[float32], b int, g blas32.General) error {
	return fromGeneral("FromGeneral32", m, b, g.Rows, g.Cols, g.Stride, g.Data)
}

// ToGeneral32 returns matrix b of m as a new, packed blas32.General.
func ToGeneral32(m *Matrix[float32], b int) (blas32.General, error) {
	data, err := m.getMatrix("ToGeneral32", b, RowMajor, nil, 0)
	if err != nil {
		return blas32.General{}, err
	}
	return blas32.General{Rows: m.rows, Cols: m.cols, Stride: max(1, m.cols), Data: data}, nil
}

// FromCGeneral128 copies g into matrix b of m; g must be m.Rows() by m.Cols().
func FromCGeneral128(m *Matrix[complex128], b int, g cblas128.General) error {
	return fromGeneral("FromCGeneral128", m, b, g.Rows, g.Cols, g.Stride, g.Data)
}

// ToCGeneral128 returns matrix b of m as a new, packed cblas128.General.
func ToCGeneral128(m *Matrix[complex128], b int) (cblas128.General, error) {
	data, err := m.getMatrix("ToCGeneral128", b, RowMajor, nil, 0)
	if err != nil {
		return cblas128.General{}, err
	}
	return cblas128.General{Rows: m.rows, Cols: m.cols, Stride: max(1, m.cols), Data: data}, nil
}

// FromCGeneral64 copies g into matrix b of m; g must be m.Rows() by m.Cols().
func FromCGeneral64(m *Matrix[complex64], b int, g cblas64.General) error {
	return fromGeneral("FromCGeneral64", m, b, g.Rows, g.Cols, g.Stride, g.Data)
}

// ToCGeneral64 returns matrix b of m as a new, packed cblas64.General.
func ToCGeneral64(m *Matrix[complex64], b int) (cblas64.General, error) {
	data, err := m.getMatrix("ToCGeneral64", b, RowMajor, nil, 0)
	if err != nil {
		return cblas64.General{}, err
	}
	return cblas64.General{Rows: m.rows, Cols: m.cols, Stride: max(1, m.cols), Data: data}, nil
}

// FromHermitian128 copies the Hermitian h into matrix b of m, both triangles: h's Uplo
// triangle as stored (the diagonal too, bitwise), the other as its conjugate transpose. m's
// matrices must be square of order h.N.
func FromHermitian128(m *Matrix[complex128], b int, h cblas128.Hermitian) error {
	return fromHermitian("FromHermitian128", m, b, h.N, h.Stride, h.Data, h.Uplo)
}

// ToHermitian128 returns matrix b of m as a new, packed cblas128.Hermitian made from its uplo
// triangle: the other triangle of m is not read, and that of Data is zero.
func ToHermitian128(m *Matrix[complex128], b int, uplo Uplo) (cblas128.Hermitian, error) {
	n, data, err := toHermitian("ToHermitian128", m, b, uplo)
	return cblas128.Hermitian{N: n, Stride: max(1, n), Data: data, Uplo: blasUplo(uplo)}, err
}

// FromHermitian64 is FromHermitian128 for complex64 and cblas64.Hermitian.
func FromHermitian64(m *Matrix[complex64], b int, h cblas64.Hermitian) error {
	return fromHermitian("FromHermitian64", m, b, h.N, h.Stride, h.Data, h.Uplo)
}

// ToHermitian64 is ToHermitian128 for complex64 and cblas64.Hermitian.
func ToHermitian64(m *Matrix[complex64], b int, uplo Uplo) (cblas64.Hermitian, error) {
	n, data, err := toHermitian("ToHermitian64", m, b, uplo)
	return cblas64.Hermitian{N: n, Stride: max(1, n), Data: data, Uplo: blasUplo(uplo)}, err
}

// fromHermitian checks a gonum Hermitian (order n, row stride, data, uplo) against m and
// copies it, both triangles, into matrix b.
func fromHermitian[T Complex](op string, m *Matrix[T], b, n, stride int, data []T, uplo blas.Uplo) error {
	if err := sameShape(op, "h", m, n, n); err != nil {
		return err
	}
	if uplo != blas.Upper && uplo != blas.Lower {
		return argErr(op, "h", "Uplo %c is neither blas.Upper nor blas.Lower", uplo)
	}
	if n > 0 && (stride < n || len(data) < (n-1)*stride+n) {
		return argErr(op, "h", "stride %d and %d elements cannot hold order %d", stride, len(data), n)
	}
	full := make([]T, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := data[i*stride+j] // element (i, j), i <= j
			if uplo == blas.Lower {
				v = data[j*stride+i]
				if i != j {
					v = conj(v)
				}
			}
			full[i*n+j] = v
			if i != j {
				full[j*n+i] = conj(v)
			}
		}
	}
	return m.putMatrix(op, "h", b, RowMajor, full, max(1, n))
}

// toHermitian downloads matrix b of m, row-major, keeping its uplo triangle and zeroing the
// other.
func toHermitian[T Complex](op string, m *Matrix[T], b int, uplo Uplo) (int, []T, error) {
	if err := m.checkOwn(op); err != nil {
		return 0, nil, err
	}
	if err := squareUplo(op, m, uplo); err != nil {
		return 0, nil, err
	}
	data, err := m.getMatrix(op, b, RowMajor, nil, 0)
	if err != nil {
		return 0, nil, err
	}
	n := m.rows
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if uplo == Lower && j > i || uplo == Upper && j < i {
				data[i*n+j] = 0
			}
		}
	}
	return n, data, nil
}

// blasUplo is uplo as gonum's blas spells it.
func blasUplo(uplo Uplo) blas.Uplo {
	if uplo == Lower {
		return blas.Lower
	}
	return blas.Upper
}

func fromGeneral[T Scalar](op string, m *Matrix[T], b, rows, cols, stride int, data []T) error {
	if err := sameShape(op, "g", m, rows, cols); err != nil {
		return err
	}
	return m.putMatrix(op, "g", b, RowMajor, data, stride)
}

// sameShape checks m and that a host matrix named arg is rows by cols like m's matrices.
func sameShape[T Scalar](op, arg string, m *Matrix[T], rows, cols int) error {
	if err := m.checkOwn(op); err != nil {
		return err
	}
	if rows != m.rows || cols != m.cols {
		return argErr(op, arg, "%dx%d, the batch's matrices are %dx%d", rows, cols, m.rows, m.cols)
	}
	return nil
}

// batchShape checks m and that n host matrices, of dimensions dims(b), match m's batch.
func batchShape[T Scalar](op, arg string, m *Matrix[T], n int, dims func(b int) (int, int)) error {
	if err := m.checkOwn(op); err != nil {
		return err
	}
	if n != m.batch {
		return argErr(op, arg, "%d matrices, the batch holds %d", n, m.batch)
	}
	for b := 0; b < n; b++ {
		if r, c := dims(b); r != m.rows || c != m.cols {
			return argErr(op, arg, "matrix %d is %dx%d, the batch's matrices are %dx%d", b, r, c, m.rows, m.cols)
		}
	}
	return nil
}

// nonEmpty checks m for a conversion to a gonum mat type, which cannot be empty.
func nonEmpty[T Scalar](op string, m *Matrix[T]) error {
	if err := m.checkOwn(op); err != nil {
		return err
	}
	if m.rows == 0 || m.cols == 0 {
		return argErr(op, "m", "%dx%d: gonum's matrices cannot be empty", m.rows, m.cols)
	}
	return nil
}

func symArgs(op string, m *Matrix[float64], uplo Uplo) error {
	if err := nonEmpty(op, m); err != nil {
		return err
	}
	return squareUplo(op, m, uplo)
}

// squareUplo checks that m is square and uplo names a triangle.
func squareUplo[T Scalar](op string, m *Matrix[T], uplo Uplo) error {
	if m.rows != m.cols {
		return argErr(op, "m", "%dx%d is not square", m.rows, m.cols)
	}
	if !uplo.valid() {
		return argErr(op, "uplo", "%v is not Lower or Upper", uplo)
	}
	return nil
}

// toAll downloads every matrix of m, in one copy, as packed row-major slices of one array.
func toAll[T Scalar](op string, m *Matrix[T]) ([][]T, error) {
	if err := nonEmpty(op, m); err != nil {
		return nil, err
	}
	k := m.rows * m.cols
	all := make([]T, k*m.batch)
	parts := make([][]T, m.batch)
	for b := range parts {
		parts[b] = all[b*k : (b+1)*k : (b+1)*k]
	}
	return parts, m.getAll(func(b int) ([]T, int) { return parts[b], m.cols })
}

// fullSym is s with both triangles, packed row-major.
func fullSym(s *mat.SymDense) []float64 {
	r := s.RawSymmetric()
	n := r.N
	full := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := r.Data[i*r.Stride+j] // the upper triangle
			if r.Uplo == blas.Lower {
				v = r.Data[j*r.Stride+i]
			}
			full[i*n+j], full[j*n+i] = v, v
		}
	}
	return full
}

// symFrom makes an n-by-n SymDense from the uplo triangle of row-major data.
func symFrom(n int, data []float64, uplo Uplo) *mat.SymDense {
	up := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := data[i*n+j]
			if uplo == Lower {
				v = data[j*n+i]
			}
			up[i*n+j] = v
		}
	}
	return mat.NewSymDense(n, up)
}
