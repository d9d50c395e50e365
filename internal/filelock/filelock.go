// Package filelock is an advisory lock on a file, held by one process at a
// time: what serialises runs of loams that change the same files.
package filelock

import "time"

// poll is how often a waiting lock is retried: what a second caller may
// lose after the first lets go.
const poll = 5 * time.Millisecond
