#!/bin/sh
# A stand-in for systemctl, launchctl, schtasks and loginctl (by the name it is
# called as), for tests: it appends its arguments to $STANDIN_LOG and does
# what the real manager would do with a loams registration, in miniature:
# start runs `loams stack run NAME` detached, stop sends SIGTERM.
tool=$(basename "$0")
echo "$tool $*" >> "$STANDIN_LOG"
case " $STANDIN_FAIL " in *" $tool $1 "*|*" $tool $2 "*) echo "$tool: refused by the test" >&2; exit 1 ;; esac
eval last=\${$#}
case "$tool" in
systemctl) name=${last#loams-stack-}; name=${name%.service} ;;
launchctl) name=${last##*dev.loams.stack.}; name=${name%.plist} ;;
schtasks) name=$3; name=${name##*stack-} ;;
esac
pidfile="$LOAMS_HOME/stacks/$name/server.pid"
pid() { sed -n 's/.*"pid":\([0-9]*\).*/\1/p' "$pidfile" 2>/dev/null; }
start() {
  extra=""
  [ "$tool" = schtasks ] && extra="--log"
  setsid "$LOAMS_BIN" stack run "$name" $extra >> "$LOAMS_HOME/stacks/$name/logs/server.log" 2>&1 < /dev/null &
}
stop() { p=$(pid); [ -n "$p" ] && kill -TERM "$p" 2>/dev/null; return 0; }
active() { p=$(pid); [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }
case "$tool $1 $2" in
"systemctl --user enable"*|"systemctl --user start"*|"launchctl bootstrap"*|"launchctl kickstart"*|"schtasks /Run"*) start ;;
"systemctl --user disable"*|"systemctl --user stop"*|"launchctl bootout"*|"launchctl kill"*|"schtasks /End"*|"schtasks /Delete"*) stop ;;
"systemctl --user is-active"*|"schtasks /Query"*) active ;;
"loginctl show-user"*) echo "${STANDIN_LINGER:-no}" ;;
"launchctl print"*) case "$last" in */dev.loams.stack.*) active ;; esac ;;
esac
