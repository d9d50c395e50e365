package front

import (
	"bytes"
	"sync"
)

// slot is where one message's answer goes: straight out, or into its batch.
type slot struct {
	batch *batch
	index int
}

// deliver sends line (nil: this message gets no answer).
func (s *slot) deliver(f *Front, line []byte) {
	if s.batch == nil {
		if line != nil {
			_ = f.writeLine(line)
		}
		return
	}
	s.batch.fill(f, s.index, line)
}

// batch collects the answers to one inbound batch, which go out together
// as one array once the last member has its answer.
type batch struct {
	mu      sync.Mutex
	parts   [][]byte
	pending int
}

func (b *batch) fill(f *Front, i int, line []byte) {
	b.mu.Lock()
	if i >= 0 {
		b.parts[i] = line
	}
	b.pending--
	complete := b.pending == 0
	b.mu.Unlock()
	if !complete {
		return
	}
	var out [][]byte
	for _, p := range b.parts {
		if p != nil {
			out = append(out, p)
		}
	}
	if len(out) > 0 {
		_ = f.writeLine(append(append([]byte{'['}, bytes.Join(out, []byte{','})...), ']'))
	}
}
