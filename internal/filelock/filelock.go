// Package filelock is an advisory lock on a file, held by one process at a
// time: what serialises runs of loams that change the same files.
package filelock

import "time"

// poll is how often a waiting lock is retried.
const poll = 10 * time.Millisecond
