package interp

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"tiny/tensor"
)

// This file defines the builtins that read and write files: from_file (a
// file's bytes as a tensor, gunzipped), safe_save/safe_load (safetensors)
// and save_npy/load_npy (NumPy's .npy). The formats are written by hand
// from their specs: the one Go safetensors module is an untagged snapshot,
// and .npy needs only a header. Scripts get file access only when the host
// grants it (Options.Files): `tiny run`, the REPL and the kernel do.

func init() {
	tensorBuiltins["from_file"] = fromFile_
	tensorBuiltins["safe_save"] = safeSave_
	tensorBuiltins["safe_load"] = safeLoad_
	tensorBuiltins["save_npy"] = saveNpy_
	tensorBuiltins["load_npy"] = loadNpy_
	tensorBuiltins["file_exists"] = fileExists_
	tensorBuiltins["script_dir"] = scriptDir_
}

// checkFiles fails unless the host granted file access.
func (it *Interp) checkFiles(c *call) {
	if !it.opts.Files {
		it.failf(c.pos, "%s: file access is not allowed here (the program running tiny did not grant it: interp.Options.Files)", c.name)
	}
}

// readFile returns the file's bytes, gunzipped when they start with gzip's
// magic number.
func (it *Interp) readFile(c *call, path string) []byte {
	it.checkFiles(c)
	data, err := os.ReadFile(path)
	if err != nil {
		it.failf(c.pos, "%s: %v", c.name, err)
	}
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err == nil {
			data, err = io.ReadAll(zr)
		}
		if err != nil {
			it.failf(c.pos, "%s: %s: %v", c.name, path, err)
		}
	}
	return data
}

// writeFile writes data to path.
func (it *Interp) writeFile(c *call, path string, data []byte) {
	it.checkFiles(c)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		it.failf(c.pos, "%s: %v", c.name, err)
	}
}

// fromFile_ returns the bytes of a file (gunzipped if it is gzip) from
// offset on as a 1-D tensor of dtype (uint8 by default), as tinygrad's
// Tensor.from_url(...)[offset:]: from_file("t10k-labels-idx1-ubyte.gz", 8).
func fromFile_(it *Interp, c *call) Value {
	var path string
	offset := 0
	var dt Value = DType{tensor.Uint8}
	it.unpack(c, "path", &path, "offset?", &offset, "dtype?", &dt)
	d := it.dtypeArg(c, dt)
	data := it.readFile(c, path)
	if offset < 0 || offset > len(data) {
		it.failf(c.pos, "from_file: offset %d is outside the file's %d bytes", offset, len(data))
	}
	data = data[offset:]
	if len(data)%d.Size() != 0 {
		it.failf(c.pos, "from_file: %d bytes are not a whole number of %s elements", len(data), d)
	}
	return tv(it.engine().FromBytes(data, []int{len(data) / d.Size()}, d))
}

// safetensors dtype names, and the reverse.
var safeDTypes = map[tensor.DType]string{
	tensor.Bool: "BOOL", tensor.Uint8: "U8", tensor.Int32: "I32", tensor.Int64: "I64",
	tensor.Float16: "F16", tensor.Float32: "F32", tensor.Float64: "F64",
}

func safeDType(name string) (tensor.DType, bool) {
	for d, n := range safeDTypes {
		if n == name {
			return d, true
		}
	}
	return 0, false
}

type safeEntry struct {
	DType   string `json:"dtype"`
	Shape   []int  `json:"shape"`
	Offsets [2]int `json:"data_offsets"`
}

// safeSave_ writes a dict of tensors to a safetensors file: an 8-byte
// little-endian header size, a JSON header naming each tensor's dtype,
// shape and byte range (keys sorted, padded with spaces to 8 bytes), then
// the data. safe_save(tensors, path, metadata=none), as tinygrad's.
func safeSave_(it *Interp, c *call) Value {
	var tv, meta Value = nil, None
	var path string
	it.unpack(c, "tensors", &tv, "path", &path, "metadata?", &meta)
	d, ok := tv.(*Dict)
	if !ok {
		it.failf(c.pos, "safe_save: tensors must be a dict of name to tensor, got %s", tv.Type())
	}
	it.checkFiles(c)
	names := append([]string(nil), d.keys...)
	sort.Strings(names)
	header := map[string]any{}
	var data []byte
	for _, name := range names {
		t, ok := d.m[name].(*TensorValue)
		if !ok {
			it.failf(c.pos, "safe_save: %s is a %s, not a tensor", name, d.m[name].Type())
		}
		dn, ok := safeDTypes[t.t.DType()]
		if !ok {
			it.failf(c.pos, "safe_save: %s has dtype %s, which safetensors files cannot hold", name, t.t.DType())
		}
		var b []byte
		it.guard(c.pos, func() { b = t.t.Bytes() })
		header[name] = safeEntry{DType: dn, Shape: t.t.Shape(), Offsets: [2]int{len(data), len(data) + len(b)}}
		data = append(data, b...)
	}
	if meta != None {
		md, ok := meta.(*Dict)
		if !ok {
			it.failf(c.pos, "safe_save: metadata must be a dict of strings, got %s", meta.Type())
		}
		m := map[string]string{}
		for _, k := range md.keys {
			s, ok := md.m[k].(String)
			if !ok {
				it.failf(c.pos, "safe_save: metadata %s must be a string, got %s", k, md.m[k].Type())
			}
			m[k] = string(s)
		}
		header["__metadata__"] = m
	}
	h, err := json.Marshal(header)
	if err != nil {
		it.failf(c.pos, "safe_save: %v", err)
	}
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	out = append(append(out, h...), data...)
	it.writeFile(c, path, out)
	return None
}

// safeLoad_ reads a safetensors file into a dict of name to tensor, in the
// order of the tensors' data.
func safeLoad_(it *Interp, c *call) Value {
	var path string
	it.unpack(c, "path", &path)
	raw := it.readFile(c, path)
	bad := func(format string, args ...any) {
		it.failf(c.pos, "safe_load: %s is not a safetensors file: %s", path, fmt.Sprintf(format, args...))
	}
	if len(raw) < 8 {
		bad("it has %d bytes", len(raw))
	}
	n := binary.LittleEndian.Uint64(raw)
	if n > uint64(len(raw)-8) {
		bad("its header of %d bytes is longer than the file", n)
	}
	var header map[string]json.RawMessage
	if err := json.Unmarshal(raw[8:8+n], &header); err != nil {
		bad("%v", err)
	}
	data := raw[8+n:]
	type named struct {
		name string
		e    safeEntry
	}
	var ents []named
	for name, msg := range header {
		if name == "__metadata__" {
			continue
		}
		var e safeEntry
		if err := json.Unmarshal(msg, &e); err != nil {
			bad("tensor %s: %v", name, err)
		}
		ents = append(ents, named{name, e})
	}
	sort.Slice(ents, func(i, j int) bool {
		if ents[i].e.Offsets[0] != ents[j].e.Offsets[0] {
			return ents[i].e.Offsets[0] < ents[j].e.Offsets[0]
		}
		return ents[i].name < ents[j].name
	})
	out := NewDict()
	eng := it.engine()
	for _, ne := range ents {
		e := ne.e
		d, ok := safeDType(e.DType)
		if !ok {
			it.failf(c.pos, "safe_load: tensor %s has dtype %s, which tiny does not have", ne.name, e.DType)
		}
		lo, hi := e.Offsets[0], e.Offsets[1]
		if lo < 0 || hi < lo || hi > len(data) {
			bad("tensor %s: data offsets [%d, %d] outside the %d bytes of data", ne.name, lo, hi, len(data))
		}
		var t *tensor.Tensor
		it.guard(c.pos, func() { t = eng.FromBytes(data[lo:hi], e.Shape, d) })
		out.Set(ne.name, tv(t))
	}
	return out
}

// npy dtype descriptions (little-endian), and the reverse.
var npyDTypes = map[tensor.DType]string{
	tensor.Bool: "|b1", tensor.Uint8: "|u1", tensor.Int32: "<i4", tensor.Int64: "<i8",
	tensor.Float16: "<f2", tensor.Float32: "<f4", tensor.Float64: "<f8",
}

// saveNpy_ writes a tensor to a .npy file (format version 1.0): save_npy(t, path).
func saveNpy_(it *Interp, c *call) Value {
	var t *TensorValue
	var path string
	it.unpack(c, "t", &t, "path", &path)
	it.checkFiles(c)
	descr, ok := npyDTypes[t.t.DType()]
	if !ok {
		it.failf(c.pos, "save_npy: dtype %s has no .npy form", t.t.DType())
	}
	dims := make([]string, t.t.Ndim())
	for i, d := range t.t.Shape() {
		dims[i] = strconv.Itoa(d)
	}
	shp := "(" + strings.Join(dims, ", ")
	if len(dims) == 1 {
		shp += ","
	}
	shp += ")"
	h := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shp)
	for (10+len(h)+1)%64 != 0 {
		h += " "
	}
	h += "\n"
	var data []byte
	it.guard(c.pos, func() { data = t.t.Bytes() })
	out := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), byte(len(h)>>8))
	out = append(append(out, h...), data...)
	it.writeFile(c, path, out)
	return None
}

var (
	npyDescr   = regexp.MustCompile(`'descr'\s*:\s*'([^']*)'`)
	npyFortran = regexp.MustCompile(`'fortran_order'\s*:\s*(True|False)`)
	npyShape   = regexp.MustCompile(`'shape'\s*:\s*\(([^)]*)\)`)
)

// loadNpy_ reads a .npy file (versions 1 to 3; C or Fortran order) into a
// tensor: load_npy(path).
func loadNpy_(it *Interp, c *call) Value {
	var path string
	it.unpack(c, "path", &path)
	raw := it.readFile(c, path)
	bad := func(why string) {
		it.failf(c.pos, "load_npy: %s is not a .npy file: %s", path, why)
	}
	if len(raw) < 10 || string(raw[:6]) != "\x93NUMPY" {
		bad("no \\x93NUMPY magic")
	}
	var hlen, start int
	switch raw[6] {
	case 1:
		hlen, start = int(binary.LittleEndian.Uint16(raw[8:])), 10
	case 2, 3:
		if len(raw) < 12 {
			bad("truncated header")
		}
		hlen, start = int(binary.LittleEndian.Uint32(raw[8:])), 12
	default:
		bad(fmt.Sprintf("format version %d", raw[6]))
	}
	if start+hlen > len(raw) {
		bad("truncated header")
	}
	h := string(raw[start : start+hlen])
	dm, fm, sm := npyDescr.FindStringSubmatch(h), npyFortran.FindStringSubmatch(h), npyShape.FindStringSubmatch(h)
	if dm == nil || fm == nil || sm == nil {
		bad("header " + strings.TrimSpace(h))
	}
	descr := dm[1]
	if strings.HasPrefix(descr, "=") {
		descr = "<" + descr[1:]
	}
	var d tensor.DType
	found := false
	for k, v := range npyDTypes {
		if v == descr || (v[0] == '|' && "<"+v[1:] == descr) {
			d, found = k, true
		}
	}
	if !found {
		it.failf(c.pos, "load_npy: %s has dtype %s, which tiny does not read", path, dm[1])
	}
	var shp []int
	for _, f := range strings.Split(sm[1], ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			bad("shape (" + sm[1] + ")")
		}
		shp = append(shp, n)
	}
	data := raw[start+hlen:]
	var t *tensor.Tensor
	it.guard(c.pos, func() {
		if fm[1] == "False" {
			t = it.engine().FromBytes(data, shp, d)
			return
		}
		// Fortran order is C order of the reversed shape, transposed.
		rev := make([]int, len(shp))
		order := make([]int, len(shp))
		for i := range shp {
			rev[i] = shp[len(shp)-1-i]
			order[i] = len(shp) - 1 - i
		}
		t = it.engine().FromBytes(data, rev, d).Permute(order...).Contiguous()
	})
	return tv(t)
}

// fileExists_ reports whether a file exists at path: file_exists(path).
func fileExists_(it *Interp, c *call) Value {
	var path string
	it.unpack(c, "path", &path)
	it.checkFiles(c)
	_, err := os.Stat(path)
	return Bool(err == nil)
}

// scriptDir_ returns the directory of the script file that calls it, as
// its path was given to tiny run (so relative to the working directory),
// or "." for code with no file (tiny -c, the REPL): data shipped beside a
// script is at script_dir() + "/data".
func scriptDir_(it *Interp, c *call) Value {
	it.unpack(c)
	f := c.pos.File
	if f == "" || strings.HasPrefix(f, "<") {
		return String(".")
	}
	return String(filepath.Dir(f))
}
