// Package errs is the coded error of the CLI contract: a stable snake_case
// code, a one-line message, a hint that says what to do next, and the exit
// code the code maps to. MCP tools return the same codes.
package errs

import (
	"errors"
	"fmt"
	"sort"

	"loams.dev/cli/internal/plainjson"
)

// Code is a stable, documented error code.
type Code string

// The codes of spec/cli.md. Adding one means adding it to exitCodes too;
// a test walks this list.
const (
	Internal             Code = "internal"
	Usage                Code = "usage"
	ConfirmationRequired Code = "confirmation_required"
	SelectionRequired    Code = "selection_required"
	StackNotFound        Code = "stack_not_found"
	ProfileNotFound      Code = "profile_not_found"
	ServerBinaryNotFound Code = "server_binary_not_found"
	SnippetNotFound      Code = "snippet_not_found"
	StackExists          Code = "stack_exists"
	TooManyStacks        Code = "too_many_stacks"
	PortInUse            Code = "port_in_use"
	StackRunning         Code = "stack_running"
	StackNotRunning      Code = "stack_not_running"
	ConfigUnparseable    Code = "config_unparseable"
	FileConflict         Code = "file_conflict"
	EngineUnsupported    Code = "engine_unsupported"
	PlatformUnsupported  Code = "platform_unsupported"
	EcosystemUnsupported Code = "ecosystem_unsupported"
	PackageNotAllowed    Code = "package_not_allowed"
	FeatureNotInServer   Code = "feature_not_in_server"
	StackUnreachable     Code = "stack_unreachable"
	Timeout              Code = "timeout"
	ServerError          Code = "server_error"
	KeyringUnavailable   Code = "keyring_unavailable"
	Forbidden            Code = "forbidden"
	PathOutsideProject   Code = "path_outside_project"
	SecretMissing        Code = "secret_missing"
	Interrupted          Code = "interrupted"

	DownloadConsentRequired Code = "download_consent_required"
	InsecureEndpoint        Code = "insecure_endpoint"
	FileTracked             Code = "file_tracked"
	VariantNotFound         Code = "variant_not_found"
	AuthNotAvailable        Code = "auth_not_available"
	EndpointUnreachable     Code = "endpoint_unreachable"
	TLSError                Code = "tls_error"
	DiskFull                Code = "disk_full"
	Unauthenticated         Code = "unauthenticated"
	UnsafePermissions       Code = "unsafe_permissions"
	ChecksumMismatch        Code = "checksum_mismatch"
	SignatureInvalid        Code = "signature_invalid"
	ManifestInvalid         Code = "manifest_invalid"

	StackAmbiguous            Code = "stack_ambiguous"
	ReleaseNotPublished       Code = "release_not_published"
	EnvTargetMismatch         Code = "env_target_mismatch"
	PackageNotPublished       Code = "package_not_published"
	ToolDisabled              Code = "tool_disabled"
	ConfigUnreadable          Code = "config_unreadable"
	ServiceManagerUnavailable Code = "service_manager_unavailable"

	SnapshotNotFound Code = "snapshot_not_found"
	SnapshotExists   Code = "snapshot_exists"
	ProjectUnbound   Code = "project_unbound"
)

// exitCodes is the one table from error code to process exit code.
var exitCodes = map[Code]int{
	Internal:             1,
	Usage:                2,
	ConfirmationRequired: 3,
	SelectionRequired:    3,
	StackNotFound:        4,
	ProfileNotFound:      4,
	ServerBinaryNotFound: 4,
	SnippetNotFound:      4,
	StackExists:          5,
	TooManyStacks:        5,
	PortInUse:            5,
	StackRunning:         5,
	StackNotRunning:      5,
	ConfigUnparseable:    5,
	FileConflict:         5,
	EngineUnsupported:    6,
	PlatformUnsupported:  6,
	EcosystemUnsupported: 6,
	PackageNotAllowed:    6,
	FeatureNotInServer:   6,
	StackUnreachable:     7,
	Timeout:              7,
	ServerError:          7,
	KeyringUnavailable:   7,
	Forbidden:            8,
	PathOutsideProject:   8,
	SecretMissing:        9,
	Interrupted:          130,

	DownloadConsentRequired: 3,
	InsecureEndpoint:        3,
	FileTracked:             5,
	VariantNotFound:         6,
	AuthNotAvailable:        6,
	EndpointUnreachable:     7,
	TLSError:                7,
	DiskFull:                7,
	Unauthenticated:         8,
	UnsafePermissions:       8,
	ChecksumMismatch:        9,
	SignatureInvalid:        9,
	ManifestInvalid:         9,

	StackAmbiguous:            2,
	ReleaseNotPublished:       4,
	EnvTargetMismatch:         5,
	ConfigUnreadable:          5,
	PackageNotPublished:       6,
	ServiceManagerUnavailable: 6,
	ToolDisabled:              8,

	SnapshotNotFound: 4,
	SnapshotExists:   5,
	ProjectUnbound:   3,
}

// ExitCode returns the exit code of c; an unknown code is a bug (1).
func (c Code) ExitCode() int {
	if n, ok := exitCodes[c]; ok {
		return n
	}
	return 1
}

// Codes lists every known code, sorted, for tests and the docs.
func Codes() []Code {
	out := make([]Code, 0, len(exitCodes))
	for c := range exitCodes {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Error is a failure the user can act on.
type Error struct {
	Code    Code
	Message string
	Hint    string
	// AgentHint is the same remedy for an MCP caller: a tool call with its
	// arguments, or "ask the user to run …" when only a person can act.
	// Empty means Hint already fits both faces (it names no command).
	AgentHint string
	// Details holds machine-readable context (names, ports, log tails).
	// Never put a secret here: it is printed and returned to agents.
	Details map[string]any
	// Err is the underlying cause, kept for errors.Is/As; it is not printed.
	Err error
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// ExitCode makes *Error satisfy urfave/cli's ExitCoder shape.
func (e *Error) ExitCode() int { return e.Code.ExitCode() }

// New builds a coded error.
func New(code Code, hint, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// With returns e with one more detail; it mutates and returns e for chaining.
func (e *Error) With(key string, value any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = value
	return e
}

// ForAgent sets the hint an MCP caller gets instead of Hint; it mutates
// and returns e for chaining. Write it with ToolCall or AskUser.
func (e *Error) ForAgent(hint string) *Error {
	e.AgentHint = hint
	return e
}

// ToolCall renders the agent's remedy "call TOOL with {args}". Args are
// rendered as compact JSON so the agent can paste them.
func ToolCall(tool string, args map[string]any) string {
	if len(args) == 0 {
		return "call " + tool
	}
	b, err := plainjson.Marshal(args)
	if err != nil {
		return "call " + tool
	}
	return "call " + tool + " with " + string(b)
}

// AskUser renders a remedy only a person can carry out.
func AskUser(command string) string { return "ask the user to run `" + command + "`" }

// HintFor returns the hint for the face: agent selects AgentHint when set.
func (e *Error) HintFor(agent bool) string {
	if agent && e.AgentHint != "" {
		return e.AgentHint
	}
	return e.Hint
}

// Wrap attaches a cause.
func (e *Error) Wrap(err error) *Error {
	e.Err = err
	return e
}

// As finds the coded error in err's chain, classifies an OS failure the
// user can act on (FromOS), or calls err internal.
func As(err error) *Error {
	var e *Error
	if errors.As(FromOS(err), &e) {
		return e
	}
	return &Error{Code: Internal, Message: err.Error(),
		Hint: "this is a bug in loams; please report it with the command you ran", Err: err}
}

// Is reports whether err carries the code c.
func Is(err error, c Code) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == c
}

// Object is the JSON shape of an error on stderr and in MCP results.
type Object struct {
	Code     Code           `json:"code"`
	Message  string         `json:"message"`
	Hint     string         `json:"hint,omitempty"`
	ExitCode int            `json:"exit_code"`
	Details  map[string]any `json:"details,omitempty"`
}

// Object returns the JSON form of e.
func (e *Error) Object() Object {
	return Object{Code: e.Code, Message: e.Message, Hint: e.Hint, ExitCode: e.ExitCode(), Details: e.Details}
}
