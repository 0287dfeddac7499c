package batchlas

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTridiagVectors checks tridiagVectors on tridiagonal matrices whose eigenvalues are
// hard for inverse iteration (close pairs, clusters, splits, grading) at orders beyond the
// conformance suite's: ||T Z - Z W||_F / (n eps ||T||_F) and ||Z^T Z - I||_F / (n eps) below
// the suite's 30, eigenvalues ascending, info 0.
func TestTridiagVectors(t *testing.T) {
	type gen func(rng *rand.Rand, n int) (d, e []float64)
	wilkinson := func(_ *rand.Rand, n int) (d, e []float64) {
		d, e = make([]float64, n), make([]float64, n-1)
		for i := range d {
			d[i] = math.Abs(float64(i) - float64(n-1)/2)
		}
		for i := range e {
			e[i] = 1
		}
		return d, e
	}
	cases := []struct {
		name string
		g    gen
	}{
		{"random", func(rng *rand.Rand, n int) (d, e []float64) {
			d, e = make([]float64, n), make([]float64, n-1)
			for i := range d {
				d[i] = rng.NormFloat64()
			}
			for i := range e {
				e[i] = rng.NormFloat64()
			}
			return d, e
		}},
		{"wilkinson", wilkinson},
		// Copies of W21+ glued by 1e-10 (Demmel, Parlett): tight clusters of up to n/21.
		{"glued_wilkinson", func(_ *rand.Rand, n int) (d, e []float64) {
			d, e = make([]float64, n), make([]float64, n-1)
			for i := range d {
				d[i] = math.Abs(float64(i%21) - 10)
			}
			for i := range e {
				e[i] = 1
				if i%21 == 20 {
					e[i] = 1e-10
				}
			}
			return d, e
		}},
		{"laplacian", func(_ *rand.Rand, n int) (d, e []float64) {
			d, e = make([]float64, n), make([]float64, n-1)
			for i := range d {
				d[i] = 2
			}
			for i := range e {
				e[i] = -1
			}
			return d, e
		}},
		// Equal diagonal, tiny coupling: one cluster of width about 4e-14.
		{"flat", func(rng *rand.Rand, n int) (d, e []float64) {
			d, e = make([]float64, n), make([]float64, n-1)
			for i := range d {
				d[i] = 1
			}
			for i := range e {
				e[i] = 1e-14 * (1 + rng.Float64())
			}
			return d, e
		}},
		{"graded", func(rng *rand.Rand, n int) (d, e []float64) {
			d, e = make([]float64, n), make([]float64, n-1)
			for i := range d {
				d[i] = math.Pow(10, -20*float64(i)/float64(n)) * (1 + rng.Float64())
			}
			for i := range e {
				e[i] = math.Sqrt(d[i] * d[i+1])
			}
			return d, e
		}},
		// Splits (zeros in e) between blocks with repeated values.
		{"split_repeated", func(rng *rand.Rand, n int) (d, e []float64) {
			d, e = make([]float64, n), make([]float64, n-1)
			for i := range d {
				d[i] = float64(i%3 - 1)
			}
			for i := range e {
				if i%5 != 4 {
					e[i] = 1e-3 * rng.NormFloat64()
				}
			}
			return d, e
		}},
		{"zero", func(_ *rand.Rand, n int) (d, e []float64) {
			return make([]float64, n), make([]float64, n-1)
		}},
	}
	const eps = 0x1p-53
	for _, c := range cases {
		for _, n := range []int{2, 5, 21, 64, 200, 513} {
			t.Run(fmt.Sprintf("%s_n%d", c.name, n), func(t *testing.T) {
				d, e := c.g(rand.New(rand.NewPCG(uint64(n), 3)), n)
				d0, e0 := slices.Clone(d), slices.Clone(e)
				z := make([]float64, n*n)
				var s steinWork
				if info := tridiagVectors(d, append(e, 0), z, n, &s); info != 0 {
					t.Fatalf("info %d", info)
				}
				if !slices.IsSorted(d) {
					t.Fatalf("eigenvalues not ascending")
				}
				var tn, res, orth float64
				for i := range d0 {
					tn += d0[i] * d0[i]
				}
				for i := range e0 {
					tn += 2 * e0[i] * e0[i]
				}
				tn = math.Sqrt(tn)
				for j := 0; j < n; j++ {
					zj := z[j*n : j*n+n]
					for i := 0; i < n; i++ {
						r := d0[i]*zj[i] - d[j]*zj[i]
						if i > 0 {
							r += e0[i-1] * zj[i-1]
						}
						if i < n-1 {
							r += e0[i] * zj[i+1]
						}
						res += r * r
					}
					for k := 0; k <= j; k++ {
						var dot float64
						for i, v := range z[k*n : k*n+n] {
							dot += v * zj[i]
						}
						if k == j {
							dot--
						}
						orth += dot * dot
						if k != j {
							orth += dot * dot
						}
					}
				}
				if res != 0 {
					res = math.Sqrt(res) / (float64(n) * eps * tn)
				}
				orth = math.Sqrt(orth) / (float64(n) * eps)
				if res > 30 || orth > 30 || math.IsNaN(res+orth) {
					t.Errorf("||TZ - ZW|| / (n eps ||T||) = %.3g, ||Z^T Z - I|| / (n eps) = %.3g", res, orth)
				}
			})
		}
	}
}

// TestSyevHostSpectra checks the host's float64 and float32 Syev kernels with vectors on
// dense matrices H diag(lambda) H (H a product of three random reflectors) with hard spectra
// at orders beyond the conformance suite's (and the complex kernels on D A D^H, D a
// diagonal of phases): ||A V - V W||_F / (n eps ||A||_F) and
// ||V^T V - I||_F / (n eps) below 30.
func TestSyevHostSpectra(t *testing.T) {
	spectra := []struct {
		name string
		f    func(i, n int) float64
	}{
		{"spread", func(i, n int) float64 { return float64(i) - float64(n)/3 }},
		{"repeated", func(i, _ int) float64 { return float64(i%3 - 1) }},
		{"clustered", func(i, n int) float64 {
			switch i {
			case 0:
				return -1
			case n - 1:
				return 3
			}
			return 1 + 1e-9*float64(i)
		}},
		{"cluster7", func(i, n int) float64 { return 2 + 1e-7*float64(i)/float64(n) }},
		{"graded", func(i, n int) float64 { return math.Pow(10, -12*float64(i)/float64(n)) }},
		{"rank_one", func(i, n int) float64 {
			if i == n/2 {
				return float64(n)
			}
			return 0
		}},
	}
	for _, sp := range spectra {
		for _, n := range []int{40, 150, 300} {
			rng := rand.New(rand.NewPCG(uint64(n), 5))
			a := make([]float64, n*n)
			for i := 0; i < n; i++ {
				a[i*n+i] = sp.f(i, n)
			}
			for r := 0; r < 3; r++ {
				v := make([]float64, n)
				var vv float64
				for i := range v {
					v[i] = rng.NormFloat64()
					vv += v[i] * v[i]
				}
				// A = H A H, H = I - 2 v v^T / v^T v: A - v p^T - p v^T with p = (2/vv)(A v - (v^T A v / vv) v).
				p := make([]float64, n)
				for j := 0; j < n; j++ {
					for i := 0; i < n; i++ {
						p[i] += a[j*n+i] * v[j]
					}
				}
				var vap float64
				for i := range v {
					vap += v[i] * p[i]
				}
				for i := range p {
					p[i] = 2 / vv * (p[i] - vap/vv*v[i])
				}
				for j := 0; j < n; j++ {
					for i := 0; i < n; i++ {
						a[j*n+i] -= v[i]*p[j] + p[i]*v[j]
					}
				}
			}
			for _, lower := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s_n%d_lower%v_f64", sp.name, n, lower), func(t *testing.T) {
					checkSyevHost[float64](t, lower, n, a, 0x1p-53)
				})
				t.Run(fmt.Sprintf("%s_n%d_lower%v_f32", sp.name, n, lower), func(t *testing.T) {
					checkSyevHost[float32](t, lower, n, a, 0x1p-24)
				})
				t.Run(fmt.Sprintf("%s_n%d_lower%v_c128", sp.name, n, lower), func(t *testing.T) {
					checkSyevHostComplex[complex128, float64](t, lower, n, a, 0x1p-53)
				})
				t.Run(fmt.Sprintf("%s_n%d_lower%v_c64", sp.name, n, lower), func(t *testing.T) {
					checkSyevHostComplex[complex64, float32](t, lower, n, a, 0x1p-24)
				})
			}
		}
	}
}

// TestSyevHostNearIdentity checks the host kernels with vectors on I + s R (R random
// symmetric), whose spectrum is one cluster for inverse iteration (every gap below
// 1e-3 ||T||_1), the case where orthogonalize runs on Dgemv.
func TestSyevHostNearIdentity(t *testing.T) {
	for _, sc := range []float64{1e-4, 1e-9} {
		for _, n := range []int{40, 200} {
			rng := rand.New(rand.NewPCG(uint64(n), 9))
			a := make([]float64, n*n)
			for j := 0; j < n; j++ {
				for i := j; i < n; i++ {
					v := sc * rng.NormFloat64()
					a[j*n+i], a[i*n+j] = v, v
				}
				a[j*n+j] += 1
			}
			for _, lower := range []bool{true, false} {
				t.Run(fmt.Sprintf("s%g_n%d_lower%v", sc, n, lower), func(t *testing.T) {
					checkSyevHost[float64](t, lower, n, a, 0x1p-53)
					checkSyevHost[float32](t, lower, n, a, 0x1p-24)
					checkSyevHostComplex[complex128, float64](t, lower, n, a, 0x1p-53)
				})
			}
		}
	}
}

func checkSyevHost[F float32 | float64](t *testing.T, lower bool, n int, a []float64, eps float64) {
	x := make([]F, n*n)
	for i, v := range a {
		x[i] = F(v)
	}
	ax := make([]complex128, n*n) // A as rounded to F
	for i, v := range x {
		ax[i] = complex(float64(v), 0)
	}
	w := make([]F, n)
	k := syevKernel[F, F](n)()
	if info := k(true, lower, n, x, n, w); info != 0 {
		t.Fatalf("info %d", info)
	}
	checkEigen(t, n, ax, w, x, eps)
}

// checkSyevHostComplex is checkSyevHost for D A D^H, D = diag(exp(i theta_j)).
func checkSyevHostComplex[C complex64 | complex128, R float32 | float64](t *testing.T, lower bool, n int, a []float64, eps float64) {
	ph := make([]complex128, n)
	for j := range ph {
		ph[j] = cmplx.Exp(complex(0, 0.7*float64(j)))
	}
	x := make([]C, n*n)
	ax := make([]complex128, n*n)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			x[j*n+i] = C(ph[i] * complex(a[j*n+i], 0) * cmplx.Conj(ph[j]))
			ax[j*n+i] = complex128(x[j*n+i])
		}
	}
	for i := 0; i < n; i++ {
		ax[i*n+i] = complex(real(ax[i*n+i]), 0)
	}
	w := make([]R, n)
	k := syevKernel[C, R](n)()
	if info := k(true, lower, n, x, n, w); info != 0 {
		t.Fatalf("info %d", info)
	}
	checkEigen(t, n, ax, w, x, eps)
}

func checkEigen[T Scalar, R float32 | float64](t *testing.T, n int, ax []complex128, w []R, x []T, eps float64) {
	if !slices.IsSorted(w) {
		t.Fatalf("eigenvalues not ascending")
	}
	vx := make([]complex128, n*n)
	for i, v := range x {
		vx[i] = c128(v)
	}
	var an, res, orth float64
	for _, v := range ax {
		an += real(v)*real(v) + imag(v)*imag(v)
	}
	an = math.Sqrt(an)
	for j := 0; j < n; j++ {
		vj := vx[j*n : j*n+n]
		for i := 0; i < n; i++ {
			r := -complex(float64(w[j]), 0) * vj[i]
			for l := 0; l < n; l++ {
				r += ax[l*n+i] * vj[l]
			}
			res += real(r)*real(r) + imag(r)*imag(r)
		}
		for l := 0; l < n; l++ {
			var dot complex128
			for i, v := range vx[l*n : l*n+n] {
				dot += cmplx.Conj(v) * vj[i]
			}
			if l == j {
				dot--
			}
			orth += real(dot)*real(dot) + imag(dot)*imag(dot)
		}
	}
	res = math.Sqrt(res) / (float64(n) * eps * an)
	orth = math.Sqrt(orth) / (float64(n) * eps)
	if res > 30 || orth > 30 || math.IsNaN(res+orth) {
		t.Errorf("||AV - VW|| / (n eps ||A||) = %.3g, ||V^H V - I|| / (n eps) = %.3g", res, orth)
	}
}

// c128 is x as a complex128.
func c128[T Scalar](x T) complex128 {
	switch v := any(x).(type) {
	case float32:
		return complex(float64(v), 0)
	case float64:
		return complex(v, 0)
	case complex64:
		return complex128(v)
	}
	return any(x).(complex128)
}
