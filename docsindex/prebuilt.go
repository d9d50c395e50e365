package docsindex

import (
	"encoding/binary"
	"errors"
	"hash/fnv"
	"io/fs"
	"math"
	"strconv"

	_ "embed"
)

//go:generate go run ./gen -o prebuilt.idx

// prebuilt is the index of the embedded bundle, built by `go generate` so
// that the first search of a process slices one string instead of walking
// and tokenising the docs (TestPrebuiltIndexIsFresh fails when it is stale).
//
//go:embed prebuilt.idx
var prebuilt string

// formatVersion changes whenever the encoding or the tokenizer changes, so
// an index from older code is never read by newer code.
const formatVersion = "loams-docs-index 3\n"

// Encode writes the index of the docs tree fsys in the prebuilt format: the
// sections, the snippets and the postings, and a fingerprint of the files
// they came from.
func Encode(fsys fs.FS) ([]byte, error) {
	fp, err := fingerprint(fsys)
	if err != nil {
		return nil, err
	}
	sections, snippets, err := walk(fsys)
	if err != nil {
		return nil, err
	}
	ix := Build(sections)
	var e encoder
	e.str(formatVersion)
	e.str(fp)
	e.uint(len(ix.docs))
	for _, d := range ix.docs {
		e.str(d.sec.Path)
		e.str(d.sec.Anchor)
		e.uint(d.sec.Level)
		e.uint(len(d.sec.TitlePath))
		for _, t := range d.sec.TitlePath {
			e.str(t)
		}
		e.str(d.sec.Body)
		e.str(d.sec.Asks)
		e.str(d.lowerText)
		e.uint(d.titleLen)
		e.uint(d.bodyLen)
		e.uint(d.asksLen)
	}
	e.float(ix.avgTitle)
	e.float(ix.avgBody)
	e.float(ix.avgAsks)
	total := 0
	for _, ps := range ix.postings {
		total += len(ps)
	}
	e.uint(len(ix.terms))
	e.uint(total)
	for i, t := range ix.terms {
		e.str(t)
		e.uint(len(ix.postings[i]))
		last := 0
		for _, p := range ix.postings[i] {
			e.uint(int(p.doc) - last) // ascending, so deltas stay small
			last = int(p.doc)
			e.uint(int(p.title))
			e.uint(int(p.body))
			e.uint(int(p.asks))
		}
	}
	e.uint(len(snippets))
	for _, s := range snippets {
		e.uint(s.doc)
		e.str(s.Engine)
		e.str(s.Language)
		e.str(s.Task)
		e.strs(s.Packages)
		e.strs(s.Env)
		e.str(s.Doc)
	}
	return e.buf, nil
}

// decode reads an index written by Encode. Every string it returns is a
// slice of data, so loading allocates little beyond the postings.
func decode(data string) (*Index, map[string]Snippet, error) {
	d := decoder{data: data}
	if d.str() != formatVersion {
		return nil, nil, errors.New("prebuilt docs index: unknown format")
	}
	d.str() // fingerprint, checked by the caller
	ix := &Index{docs: make([]doc, d.uint())}
	for i := range ix.docs {
		s := Section{Path: d.str(), Anchor: d.str(), Level: d.uint()}
		s.TitlePath = make([]string, d.uint())
		for j := range s.TitlePath {
			s.TitlePath[j] = d.str()
		}
		s.Body, s.Asks = d.str(), d.str()
		ix.docs[i] = doc{sec: s, lowerText: d.str(), titleLen: d.uint(), bodyLen: d.uint(), asksLen: d.uint()}
	}
	ix.avgTitle, ix.avgBody, ix.avgAsks = d.float(), d.float(), d.float()
	ix.terms = make([]string, d.uint())
	ix.postings = make([][]posting, len(ix.terms))
	all := make([]posting, d.uint())
	for i := range ix.terms {
		ix.terms[i] = d.str()
		n := d.uint()
		if n > len(all) {
			return nil, nil, errors.New("prebuilt docs index: corrupt postings")
		}
		ps := all[:n:n]
		all = all[n:]
		doc := 0
		for j := range ps {
			doc += d.uint()
			ps[j] = posting{doc: int32(doc), title: uint16(d.uint()), body: uint16(d.uint()), asks: uint16(d.uint())}
		}
		ix.postings[i] = ps
	}
	n := d.uint()
	snippets := make(map[string]Snippet, n)
	for range n {
		i := d.uint()
		s := Snippet{Engine: d.str(), Language: d.str(), Task: d.str(), Packages: d.strs(), Env: d.strs(), Doc: d.str()}
		if d.err != nil || i >= len(ix.docs) {
			return nil, nil, errors.New("prebuilt docs index: corrupt snippets")
		}
		s.Code, s.Path, s.DocURL, s.doc = ix.docs[i].sec.Body, ix.docs[i].sec.Path, docURL(s.Doc, ""), i
		if s.Doc == "" {
			s.DocURL = ""
		}
		snippets[s.key()] = s
	}
	if d.err != nil {
		return nil, nil, d.err
	}
	return ix, snippets, nil
}

// fingerprint names the files of a docs tree that the index reads, and
// their sizes: enough to notice, at run time and for free, that the
// embedded docs changed since the prebuilt index was generated (the
// freshness test compares bytes). Other files do not count, so the docs
// directory on disk (with its Go files) has the embedded tree's fingerprint.
func fingerprint(fsys fs.FS) (string, error) {
	h := fnv.New64a()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !indexed(p) {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		h.Write([]byte(p + "\x00" + strconv.FormatInt(info.Size(), 10) + "\n"))
		return nil
	})
	return strconv.FormatUint(h.Sum64(), 16), err
}

// prebuiltFor returns the prebuilt index when it was made from fsys as it
// is now, else "".
func prebuiltFor(fsys fs.FS) string {
	d := decoder{data: prebuilt}
	if d.str() != formatVersion {
		return ""
	}
	if fp, err := fingerprint(fsys); err != nil || fp != d.str() {
		return ""
	}
	return prebuilt
}

type encoder struct{ buf []byte }

func (e *encoder) uint(n int) { e.buf = binary.AppendUvarint(e.buf, uint64(n)) }
func (e *encoder) float(f float64) {
	e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(f))
}
func (e *encoder) str(s string) { e.uint(len(s)); e.buf = append(e.buf, s...) }
func (e *encoder) strs(s []string) {
	e.uint(len(s))
	for _, x := range s {
		e.str(x)
	}
}

// decoder reads what encoder wrote; the first error sticks and every read
// after it returns zero values.
type decoder struct {
	data string
	at   int
	err  error
}

func (d *decoder) uint() int {
	if d.err != nil {
		return 0
	}
	var n uint64
	for shift := 0; ; shift += 7 {
		if d.at >= len(d.data) || shift > 63 {
			d.err = errors.New("prebuilt docs index: truncated")
			return 0
		}
		c := d.data[d.at]
		d.at++
		n |= uint64(c&0x7f) << shift
		if c < 0x80 {
			break
		}
	}
	if n > uint64(len(d.data)) { // no count or length can exceed the data

		d.err = errors.New("prebuilt docs index: corrupt length")
		return 0
	}
	return int(n)
}

func (d *decoder) float() float64 {
	if d.err != nil || d.at+8 > len(d.data) {
		d.err = errors.New("prebuilt docs index: truncated")
		return 0
	}
	v := binary.LittleEndian.Uint64([]byte(d.data[d.at : d.at+8]))
	d.at += 8
	return math.Float64frombits(v)
}

func (d *decoder) str() string {
	n := d.uint()
	if d.err != nil || d.at+n > len(d.data) {
		d.err = errors.New("prebuilt docs index: truncated")
		return ""
	}
	s := d.data[d.at : d.at+n]
	d.at += n
	return s
}

func (d *decoder) strs() []string {
	out := make([]string, min(d.uint(), len(d.data)))
	for i := range out {
		out[i] = d.str()
	}
	return out
}
