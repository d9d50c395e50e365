package secret

import (
	"context"
	"sync"
)

// Memory is an in-process Store for tests.
type Memory struct {
	mu sync.Mutex
	m  map[string]Secret
}

func NewMemory() *Memory { return &Memory{m: map[string]Secret{}} }

func (m *Memory) Get(_ context.Context, stack string) (Secret, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.m[stack]
	if !ok {
		return Secret{}, ErrNotFound
	}
	return s, nil
}

func (m *Memory) Set(_ context.Context, stack string, s Secret) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[stack] = s
	return nil
}

func (m *Memory) Delete(_ context.Context, stack string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.m, stack)
	return nil
}

func (m *Memory) Backend() string { return "memory" }
