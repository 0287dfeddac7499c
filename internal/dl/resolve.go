package dl

import (
	"fmt"
	"reflect"
	"unsafe"
)

var procType = reflect.TypeFor[*Proc]()

func resolve(l *Lib, table any) error {
	v := reflect.ValueOf(table)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("batchlas: dl.Resolve takes a pointer to a struct, not %T", table)
	}
	s := v.Elem()
	for i := range s.NumField() {
		f := s.Type().Field(i)
		name, ok := f.Tag.Lookup("sym")
		if !ok || f.Type != procType {
			continue
		}
		p, err := l.Proc(name)
		if err != nil {
			return err
		}
		// The tables' fields are unexported: set through the field's address.
		reflect.NewAt(procType, unsafe.Pointer(s.Field(i).UnsafeAddr())).Elem().Set(reflect.ValueOf(p))
	}
	return nil
}
