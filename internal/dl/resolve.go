package dl

import (
	"fmt"
	"reflect"
	"strings"
	"unsafe"
)

var (
	procType  = reflect.TypeFor[*Proc]()
	procsType = reflect.TypeFor[Procs]()
)

func resolve(l *Lib, table any) error {
	v := reflect.ValueOf(table)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("batchlas: dl.Resolve takes a pointer to a struct, not %T", table)
	}
	s := v.Elem()
	for i := range s.NumField() {
		f := s.Type().Field(i)
		tag, ok := f.Tag.Lookup("sym")
		if !ok || (f.Type != procType && f.Type != procsType) {
			continue
		}
		optional := f.Tag.Get("optional") == "true"
		// The tables' fields may be unexported: set through the field's address.
		dst := reflect.NewAt(f.Type, unsafe.Pointer(s.Field(i).UnsafeAddr())).Elem()
		if f.Type == procType {
			p, err := l.resolveProc(tag, optional)
			if err != nil {
				return err
			}
			dst.Set(reflect.ValueOf(p))
			continue
		}
		names, err := expandDtypes(tag)
		if err != nil {
			return fmt.Errorf("batchlas: %s: field %s: %w", l.name, f.Name, err)
		}
		var ps Procs
		for t, name := range names {
			if ps[t], err = l.resolveProc(name, optional); err != nil {
				return err
			}
		}
		dst.Set(reflect.ValueOf(ps))
	}
	return nil
}

// resolveProc is Proc, except that a missing optional symbol gives a Proc that holds the
// lookup's error instead of failing the whole table.
func (l *Lib) resolveProc(name string, optional bool) (*Proc, error) {
	p, err := l.Proc(name)
	if err != nil && optional {
		return &Proc{lib: l, name: name, err: err}, nil
	}
	return p, err
}

// expandDtypes gives a Procs tag's four names, for s, d, c and z: {T} is S, D, C or Z (the
// CUDA libraries' spelling), {t} is s, d, c or z (ROCm's), and {real|complex} is real for s
// and d, complex for c and z. Other braces are an error.
func expandDtypes(tag string) ([4]string, error) {
	var out [4]string
	rest := tag
	for rest != "" {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			for t := range out {
				out[t] += rest
			}
			break
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return out, fmt.Errorf("tag %q: unclosed {", tag)
		}
		lit, group := rest[:open], rest[open+1:open+end]
		rest = rest[open+end+1:]
		var parts [4]string
		switch r, c, _ := strings.Cut(group, "|"); {
		case group == "T":
			parts = [4]string{"S", "D", "C", "Z"}
		case group == "t":
			parts = [4]string{"s", "d", "c", "z"}
		case strings.Count(group, "|") == 1 && !strings.Contains(group, "{"):
			parts = [4]string{r, r, c, c}
		default:
			return out, fmt.Errorf("tag %q: {%s} is neither {T}, {t} nor {real|complex}", tag, group)
		}
		for t := range out {
			out[t] += lit + parts[t]
		}
	}
	return out, nil
}
