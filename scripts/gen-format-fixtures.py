#!/usr/bin/env python3
# gen-format-fixtures.py: record tests/fixtures/format.json, the reference for
# format expansion (src/engine/format.rs, checked by tests/format.rs).
#
# It starts a private tmux server (tmux -L zpfmt<pid> -f /dev/null) with a
# fixed time zone and known sessions, windows, panes and user options, then
# records for every template in CASES what tmux 3.3a prints:
#   display  display-message -p -t fmt: TEMPLATE   (format_expand_time)
#   ls       list-sessions -F TEMPLATE             (format_expand, per session)
#   filter   list-sessions -f TEMPLATE -F '#{session_name}'
# together with the values of every variable the templates can name (each
# identifier in any template, plus the variables behind the #X aliases), at
# the display level and for every session, window and pane (for the loops and
# the per-session list output). Time-dependent output only comes from
# recorded values: the case's "now" (the second the command ran, retried until
# it is unambiguous) and the recorded time zone.
#
# usage: scripts/gen-format-fixtures.py
#
# Requirements: python3 (stdlib only), tmux 3.3a on PATH (or $TMUX_BIN), the
# C.UTF-8 locale.

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "format.json"
TMUX = os.environ.get("TMUX_BIN") or shutil.which("tmux") or "tmux"
SOCKET = "zpfmt%d" % os.getpid()
# A fixed zone without daylight saving, east of UTC so offsets are exercised.
TZ = "ZPT-5:30"
ZONE = {"offset": 5 * 3600 + 30 * 60, "name": "ZPT"}
ENV = {
    "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    "HOME": os.environ.get("HOME", "/"),
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TZ": TZ,
    "TERM": "xterm-256color",
}
SLEEP = "sleep 100000"
SEP = "\x1f"
# The variables behind the #X aliases, and those the loops need.
BASE = ["pane_id", "window_flags", "host", "window_index", "pane_index",
        "session_name", "pane_title", "window_name", "host_short",
        "window_active", "pane_active"]


def tmux(*args, check=True):
    p = subprocess.run([TMUX, "-L", SOCKET, "-f", "/dev/null", *args],
                       env=ENV, capture_output=True)
    if check and p.returncode != 0:
        raise SystemExit("tmux %r failed: %s" % (args, p.stderr.decode(errors="replace")))
    out = p.stdout.decode("utf-8", errors="surrogateescape")
    return out[:-1] if out.endswith("\n") else out


def options(now):
    """User options: (name, value). Some are relative to now, for pretty times."""
    return [
        ("@ts", "1700000000"),
        ("@ts2", "946684799"),
        ("@tsbig", "253402300800"),
        ("@ago1h", str(now - 3600)),
        ("@ago3d", str(now - 3 * 86400)),
        ("@ago40d", str(now - 40 * 86400)),
        ("@ago200d", str(now - 200 * 86400)),
        ("@ago3y", str(now - 3 * 365 * 86400)),
        ("@future", str(now + 86400)),
        ("@path", "/usr/local/lib/"),
        ("@path2", "//a//b//"),
        ("@rel", "file.txt"),
        ("@root", "/"),
        ("@dslash", "//"),
        ("@dslashx", "//x"),
        ("@tslash", "///x"),
        ("@relpath", "a/b"),
        ("@wide", "日本語テキスト"),
        ("@mixed", "aé日b"),
        ("@comb", "e\u0301x\u0301y"),
        ("@hash", "a###b#[fg=red]cd"),
        ("@style", "#[fg=red]red#[default]plain"),
        ("@num", "42"),
        ("@neg", "-7"),
        ("@float", "2.5"),
        ("@zero", "0"),
        ("@empty", ""),
        ("@fmt", "#{session_name}-#{window_index}"),
        ("@pct", "%Y|%%|#{session_name}"),
        ("@comma", "a,b"),
        ("@shell", "it's a $test & (more) #1"),
        ("@upper", "Hello World"),
        ("@abcd", "abcd"),
        ("@self", "#{E:@self}x"),
        ("@tab", "a\tb"),
        ("@long", "0123456789" * 30),
        ("@x", "x"),
        ("@ts3", "1704067199"),
        ("@ts4", "1609459200"),
        ("@ts5", "1"),
        ("@ts6", "4102444800"),
        ("@ts7", "1230768000"),
        ("@ts8", "1262217600"),
        ("@bad", "a\u0378b\U000e0080c"),
        ("@ctl", "a\x01b\x7fc"),
        ("@dirs", "/a a/ a// /a/b //a /// a//b ./ ../x . .. a/b/ /a//"),
    ]


def deep(n):
    return "#{?1," * n + "x" + ",}" * n


DISPLAY = [
    # plain, variables, aliases
    "", "plain text", "#{session_name}", "#S:#I:#W.#P", "#D #F #T", "#H|#h",
    "#{window_index}", "#{pane_index}", "#{window_flags}", "#{unknown_var}",
    "[#{}]", "[#{ }]", "#A#B#Z#a#z#1", "#{@num}", "[#{@empty}]",
    "#{session_windows} #{window_panes}", "#{session_name}#{session_name}",
    "#{@fmt}", "#{@comma}", "#{@wide}", "#{@tab}",
    # escapes
    "##", "###", "####", "#,", "#}", "#{", "a#", "#", "##[fg=red]", "###[x",
    "####[x", "#[fg=red]x", "#:", "#;x", "#é", "#{l:##}", "x,y}z", "}{", "{}",
    "#{?1,a#,b,c}", "#{?1,#},x}", "a##b", "#(", "a#(", "#((x", "#(echo hi)z",
    "#(echo #{session_name})", "#(#(x))y",
    # conditionals
    "#{?session_name,yes,no}", "#{?@zero,yes,no}", "#{?@empty,yes,no}",
    "#{?@unknown,yes,no}", "#{?#{==:#S,fmt},eq,ne}", "#{?1,a,b}", "#{?0,a,b}",
    "#{?,a,b}", "x#{?1,a}y", "x#{?1}y", "#{?@num,#{@num},none}",
    "#{?1,#{?0,x,y},z}", "#{?1,a,b,c}", "#{?0,a,b,c}", "#{?#{@num},a,b}",
    "#{?abc,a,b}", "#{?#{l:x},a,b}", "#{?window_active,A,-}", "#{?@fmt,y,n}",
    "#{?1,{a},b}", "#{?1,#{l:a,b},c}", "#{?#{@zero},a,b}", "#{?0,,}",
    "#{?session_name,#{session_name},}", "#{?#{unknown},a,b}",
    "#{?#{==:1,1},#{?#{==:2,2},both,one},none}", "#{t:?@ts,a,b}",
    # comparisons
    "#{==:a,a}", "#{==:a,b}", "#{!=:a,b}", "#{!=:a,a}", "#{<:a,b}",
    "#{>:a,b}", "#{<=:b,b}", "#{>=:a,b}", "#{<:10,9}", "#{>:B,a}",
    "#{||:0,1}", "#{||:0,}", "#{||:,}", "#{&&:1,1}", "#{&&:1,0}",
    "#{&&:x,y}", "#{==:#{session_name},fmt}", "x#{==:a}y", "#{==:a,b,c}",
    "#{==:a,a,b}", "#{==:,}", "#{!=:#{@num},42}", "#{==:#{@comma},a}",
    "#{==;!=:a,b}", "#{==:#,,#,}", "#{==:a}",
    # fnmatch and regex
    "#{m:f*,fmt}", "#{m:*x*,fmt}", "#{m:?m?,fmt}", "#{m:[a-f]mt,fmt}",
    "#{m:[!a-f]mt,fmt}", "#{m:[^a-f]mt,fmt}", "#{m/i:FMT,fmt}",
    "#{m:FMT,fmt}", "#{m/r:^f.t$,fmt}", "#{m/r:^F,fmt}", "#{m/ri:^F,fmt}",
    "#{m/r:(,fmt}", "#{m:\\*,*}", "#{m:\\*,x}", "#{m:[[:alpha:]]*,fmt}",
    "#{m:[[:bogus:]]*,fmt}", "#{m:[abc,[abc}", "#{m:*,}", "#{m:,}",
    "#{m:a*b*c,aXbYc}", "#{m:a*b*c,aXbYcd}", "#{m/r:b+,abbbc}",
    "#{m/r:^(a|b)+$,abba}", "#{m/r:x{2,3},axxb}", "#{m/r:x{4},axxxb}",
    "#{m:*.txt,#{@rel}}", "#{m:/usr/*,#{@path}}", "#{m:[]a]*,]x}",
    "#{m:a\\,a}", "#{m:日*,#{@wide}}", "#{m:??????,#{@wide}}",
    "#{m:???????,#{@wide}}", "#{m/r:^.{7}$,#{@wide}}", "#{m/r:[[:digit:]]+,a1}",
    "#{m/r:\\bWorld,#{@upper}}", "#{m/r:,x}", "#{m/r:a|,b}",
    # width limits
    "#{=3:session_name}", "#{=-2:session_name}", "#{=0:session_name}",
    "#{=10:session_name}", "#{=2147483647:session_name}",
    "#{=2147483648:session_name}", "#{=-2147483648:session_name}",
    "#{=x:session_name}", "#{= 2:session_name}", "#{=+2:session_name}",
    "#{=3:@wide}", "#{=4:@wide}", "#{=5:@wide}", "#{=-3:@wide}",
    "#{=-4:@wide}", "#{=-5:@wide}", "#{=/3/...:@wide}", "#{=/-3/...:@wide}",
    "#{=/20/...:@wide}", "#{=/2/#,:@upper}", "#{=/2/:@upper}", "#{=/2:@upper}",
    "#{=5:@hash}", "#{=-5:@hash}", "#{=1:@hash}", "#{=2:@hash}",
    "#{=-1:@hash}", "#{=3:@style}", "#{=-3:@style}", "#{=4:@style}",
    "#{=-7:@style}", "#{=2:@comb}", "#{=1:@comb}", "#{=-1:@comb}",
    "#{=-2:@comb}", "#{=5;=3:@upper}", "#{=5:#{t:@ts}}", "#{=-4:#{t:@ts}}",
    "#{=3:#{@fmt}}", "#{=/4/:@upper}", "#{=4:@tab}", "#{=-3:@tab}",
    "#{=3:@mixed}", "#{=-3:@mixed}", "#{=#{@num}:@upper}",
    "#{=5:#{l:#[x]abcdef}}", "#{=1:##}", "#{=3:@long}", "#{=-3:@long}",
    "#{=/3/#{session_name}:@upper}",
    # padding
    "#{p10:session_name}|", "#{p-10:session_name}|", "#{p2:session_name}|",
    "#{p10:@wide}|", "#{p20:@wide}|", "#{p-20:@wide}|", "#{p5:@hash}|",
    "#{p-5:@hash}|", "#{p5;=2:session_name}|", "#{px:session_name}|",
    "#{p0:session_name}|", "#{p4:@comb}|", "#{p6:@tab}|", "#{p5:}|",
    "#{p3:@empty}|", "#{p-30:x}|", "#{p300:x}|",
    # length and width
    "#{n:session_name}", "#{n:@wide}", "#{w:@wide}", "#{w:@hash}",
    "#{w:@style}", "#{w:@comb}", "#{n:@empty}", "#{w:@empty}", "#{n:}",
    "#{w:@tab}", "#{n:@tab}", "#{w:@mixed}", "#{n;w:@wide}",
    "#{n:#{l:abc}}", "#{w:#{p10:x}}",
    # times
    "#{t:@ts}", "#{t:@ts2}", "#{t:@tsbig}", "#{t:session_created}",
    "#{t:@num}", "#{t:@zero}", "#{t:@neg}", "#{t:@upper}", "#{t:unknown}",
    "#{t:@empty}", "#{t/p:@ts}", "#{t/p:session_created}", "#{t/p:@ago1h}",
    "#{t/p:@ago3d}", "#{t/p:@ago40d}", "#{t/p:@ago200d}", "#{t/p:@ago3y}",
    "#{t/p:@future}", "#{t/f/%%Y-%%m-%%d:@ts}", "#{t/f/%%H#:%%M#:%%S:@ts}",
    "#{t/f/%%H:%%M:@ts}", "#{t/f/%%a %%A %%b %%B %%c:@ts}",
    "#{t/f/%%C %%d %%D %%e %%F %%g %%G %%h %%I %%j %%k %%l %%m %%M:@ts}",
    "#{t/f/%%p %%P %%r %%R %%s %%S %%T %%u %%U %%V %%w %%W:@ts}",
    "#{t/f/%%x %%X %%y %%Y %%z %%Z %%%%:@ts}",
    "#{t/f/%%-d %%_H %%05M %%^a %%#b %%#Z %%10Q %%Ey %%Oy %%Ea %%q:@ts}",
    "#{t/f/%%-5d|%%_5d|%%-j|%%3e|%%^B|%%#p|%%^p|%%#A|%%10a|%%010A:@ts2}",
    "#{t/f/[%%n%%t]:@ts}", "#{t/f/:@ts}", "#{t/f/%%H:@empty}",
    "#{t/f/%%Y#,%%m:@ts}", "#{t/f/%%a:@ts2}", "#{t/f/%%G-%%V %%g:@ts2}",
    "#{t/f/%%c:@tsbig}", "#{t/x:@ts}", "#{t/fp/%%Y:@ts}", "#{t/pf:@ts}",
    "#{t:#{@ts}}", "#{b;t:@ts}", "#{t;=10:@ts}", "#{t/f/%%:@ts}",
    "#{t/f/%%E:@ts}", "#{t/f/%%5:@ts}", "#{t/f/%%Oq:@ts}",
    # top-level strftime of display-message
    "%%", "%%%%", "100%", "%%d", "%n|%t|", "%Z %z", "%Y-%m-%d %H:%M:%S", "%^q|%^5k|%^#Z",
    "#{l:%%Y}", "#{?1,%%%%,b}", "%q%Ey", "%",
    # literal, E and T
    "#{l:#{session_name}}", "#{l:a#,b}", "#{l:#}", "#{l:}", "#{l:a:b}",
    "#{l;E:#{session_name}}", "#{E:@fmt}", "#{E:@pct}", "#{T:@pct}",
    "#{E:#{l:#{session_name}}}", "#{E:@self}", "#{E:@hash}", "#{E:@num}",
    "#{E:unknown}", "#{T:@fmt}", "#{T;=3:@pct}",
    # substitution
    "#{s/f/F/:session_name}", "#{s/m/:session_name}", "#{s/[aeiou]/_/:@upper}",
    "#{s/l+/L/:@upper}", "#{s/o/0/i:@upper}", "#{s/O/0/i:@upper}",
    "#{s/O/0/:@upper}", "#{s/^/X/:session_name}", "#{s/$/X/:session_name}",
    "#{s/x*/-/:session_name}", "#{s/(f)(m)/\\2\\1/:session_name}",
    "#{s/(H)(e)/\\2\\1\\3\\0/:@upper}", "#{s/o/\\\\/:@upper}",
    "#{s/o/\\/:@upper}", "#{s/(/x/:session_name}", "#{s|/|_|:@path}",
    "#{s/\\//_/:@path}", "#{s/World/#{session_name}/:@upper}",
    "#{s/l/L/;s/L/M/:@upper}", "#{s/ /#,/:@upper}", "#{s/.*/[&]/:session_name}",
    "#{s/\\bW/w/:@upper}", "#{s/[[:space:]]/_/:@upper}",
    "#{s/o{1,2}/0/:@upper}", "#{s/l{2}/LL/:@upper}", "#{s/日本/JP/:@wide}",
    "#{s/./-/:@wide}", "#{s/(a|ab)(c|bcd)(d*)/[\\1|\\2|\\3]/:@abcd}",
    "#{s/b*/-/:@abcd}", "#{s/^a|d$/_/:@abcd}", "#{s/(b|c)+/<\\1>/:@abcd}",
    "#{s/x/y/:@empty}", "#{s/a/b/:unknown}", "#{s/a:b/c/:v}",
    "#{s/#{session_name}/S/:@fmt}", "#{s/\\w+/W/:@upper}",
    "#{s/[^ ]+$/!/:@upper}", "#{s/^[[:upper:]]/_/:@upper}", "#{s/H/h:@upper}",
    "#{s/(o)|(l)/[\\1\\2]/:@upper}", "#{s/l*/-/:@upper}",
    "#{s/a/b/;=3:@abcd}", "#{=3;s/a/b/:@abcd}", "#{s/%%/P/:@pct}",
    # basename and dirname
    "#{b:@path}", "#{d:@path}", "#{b:@path2}", "#{d:@path2}", "#{b:@rel}",
    "#{d:@rel}", "#{b:@empty}", "#{d:@empty}", "#{b:#{@path}}", "#{b:@root}",
    "#{d:@root}", "#{b:@dslash}", "#{d:@dslash}", "#{b:@dslashx}",
    "#{d:@dslashx}", "#{b:@tslash}", "#{d:@tslash}", "#{b:@relpath}",
    "#{d:@relpath}", "#{b;d:@path}", "#{d:unknown}",
    # quoting
    "#{q:@shell}", "#{q/e:@hash}", "#{q/h:@hash}", "#{q/x:@shell}",
    "#{q:@wide}", "#{q:@empty}", "#{q;q/e:@hash}",
    # characters and colours
    "#{a:65}", "#{a:31}", "#{a:32}", "#{a:126}", "#{a:127}", "#{a:@num}",
    "#{a:0x41}", "#{a: 66}", "#{c:red}", "#{c:colour196}", "#{c:#AbCdEf}",
    "#{c:default}", "#{c:brightblue}", "#{c:92}", "#{c:8}", "#{c:color256}",
    "#{c:colour0}", "#{c:COLOUR21}", "#{c:#12345}", "#{c:terminal}",
    "#{c:7}", "#{c:colour255}", "#{c:colour232}",
    # expressions
    "#{e|+|:1,2}", "#{e|-|:1,2}", "#{e|*|:3,4}", "#{e|/|:7,2}",
    "#{e|/|f:7,2}", "#{e|%|:7,3}", "#{e|m|:7,3}", "#{e|==|:1,1.0}",
    "#{e|!=|:1,2}", "#{e|<|:1,2}", "#{e|>|:1,2}", "#{e|<=|:2,2}",
    "#{e|>=|:1,2}", "#{e|+|f|4:1.5,2.25}", "#{e|+||3:1,2}",
    "#{e|+||-1:1,2}", "#{e|+||x:1,2}", "#{e|^|:1,2}", "#{e|+|:a,2}",
    "#{e|+|:1}", "#{e|+|: 5, 6}", "#{e|+|:5 ,6}", "#{e|+|:0x10,0x1p4}",
    "#{e|*|f:1e308,10}", "#{e|-|f:0,inf}", "#{e|/|:1,0}", "#{e|/|f:0,0}",
    "#{e|%|f:5.5,2}", "#{e|%|f:1,0}", "#{e|+|:#{@num},#{@neg}}",
    "#{e|*|:2,#{e|+|:1,2}}", "#{e|/|f|10:1,3}", "#{e|+|f|0:2.5,0}",
    "#{e|+|f|0:3.5,0}", "#{e|+|:9223372036854775807,1}",
    "#{e|+|:1.9,1.9}", "#{e|-|:-1.9,0}", "#{e|+|:,}", "#{e|+|: ,1}",
    "#{e|+|:+1,-2}", "#{e|+|:1e3,.5}", "#{e|+|f:1.,.5}", "#{e|+|f:nan,1}",
    "#{e|+|f:-nan,1}", "#{e|+|f:INFINITY,1}", "#{e|<|f:1,2}", "#{e|+|f|1:0.25,0}",
    "#{e|+|f|1:0.35,0}", "#{e|*|f|2:@float,2}", "#{e|+|f|2:1e-7,0}",
    "#{e|+|f|2:1,2,3}", "#{e|+:1,2}", "#{e:1,2}", "#{e|+|f|2|:1,2}",
    "#{e|/|:-7,2}", "#{e|%|:-7,2}", "#{e|+|:1_0,1}",
    "#{?#{e|<|:1,2},y,n}", "#{e|+|:0x,1}", "#{e|+|:0x1.8p1,0}", "#{e|+|f:0x1.8p1,0}",
    "#{e|+|f:1e,0}", "#{e|+|f:.,0}", "#{e|-|:9223372036854775807,-1}",
    "#{e|*|f|3:-0,1}", "#{e|+|f|20:0.1,0.2}", "#{e|<=|f:2,2}", "#{e|>|f:3,2}",
    # loops, name checks, search
    "#{S:#{session_name} }", "#{W:#{window_index}:#{window_name} }",
    "#{W:#I ,[#I] }", "#{P:#{pane_index} }", "#{P:#P,*#P }",
    "#{S:#{session_name}(#{W:#I})}", "#{S:#{P:#P}}", "#{W:#{P:#{pane_index}}|}",
    "#{S:}", "#{W:,}", "#{S:#{?#{==:#S,fmt},[#S],#S}}", "#{N:two}",
    "#{N:nope}", "#{N/s:other}", "#{N/s:nope}", "#{N/w:first}", "#{N/x:first}",
    "#{C:zzz}", "#{C/r:z+}", "#{S;=3:#S}", "#{W;n:#I}",
    # malformed
    "#{", "#{session_name", "abc#{def", "#{?", "#{?1", "#{?1,a", "a#{?1,b}c",
    "#{=5:", "#{s/a/b/", "#{foo:bar}", "#{foo:#{session_name}}",
    "#{=/5/:abc}", "#{l;}", "#{l", "#{:}", "#{;:session_name}",
    "#{l;;:x}", "#{=5;}", "#{e|+}", "}", "#}}", "#{#{session_name}}",
    "#{#{l:session_name}}", "#{session_#{l:name}}", "#{abc#",
    "#{?#{abc#,x,y}", "a#{?1,#{x}b", "#{l:#{}", "#{==:#{,}",
    "#{=:session_name}", "#{s::session_name}", "#{t;:@ts}", "#{m;:a,a}",
    "#{||;&&:1,0}", "#{<;>:a,b}", "#{q/:@shell}", "#{=/:x}", "#{s/a/b}",
    "#{s/a}", "#{s:x}", "#{C}", "#{?#{?1,1,0},t,f}x#{", "#{l:a}#{",
    # more times
    "#{t/f/%%G %%V %%g %%U %%W %%j %%u %%w %%C:@ts3}",
    "#{t/f/%%G %%V %%g %%U %%W %%j %%u %%w %%C:@ts4}",
    "#{t/f/%%G %%V %%g %%U %%W %%j %%u %%w %%C:@ts5}",
    "#{t/f/%%G %%V %%g %%U %%W %%j %%u %%w %%C:@ts6}",
    "#{t/f/%%G %%V %%g %%U %%W %%j %%u %%w %%C:@ts7}",
    "#{t/f/%%G %%V %%g %%U %%W %%j %%u %%w %%C:@ts8}",
    "#{t:@ts3}|#{t:@ts4}|#{t:@ts5}|#{t:@ts6}",
    "#{t/f/%%Ec|%%EC|%%Ex|%%EX|%%EY|%%Ey|%%Od|%%Oe|%%OH|%%OI|%%Om|%%OM:@ts}",
    "#{t/f/%%OS|%%Ou|%%OU|%%OV|%%Ow|%%OW|%%Oy|%%Ob|%%OB|%%Oh|%%Op|%%Ek|%%Es:@ts}",
    "#{t/f/%%#a|%%#A|%%#b|%%#B|%%#h|%%#p|%%#Z|%%^Z|%%#c|%%^c|%%^x|%%#P|%%^P:@ts}",
    "#{t/f/%%I %%l %%p:@ts5}", "#{t/f/%%I %%l %%p %%r:@ts7}", "#{t/f/%%EE|%%OO|%%E%%:@ts}",
    "#{t/f/%%3%%|%%-3n|%%5t|%%_5Z|%%05Z|%%-5Z|%%3z|%%08s:@ts}",
    "#{t/f/%%-8z|%%_8z|%%08z|%%z|%%E%%|%%O%%|%%Ez|%%EZ|%%Ep|%%Ej|%%E3d:@ts}",
    "#{t/f/%%D %%F %%T %%R %%x %%X %%c:@ts6}", "#{t/f/%%12c|%%-12D|%%^12a:@ts}",
    # more paths
    "#{s/ /|/:@dirs}",
    "#{b:@dirs}", "#{d:@dirs}",
    # more fnmatch
    "#{m:[a-]x,-x}", "#{m:[!]]x,ax}", "#{m:[]-a]x,^x}", "#{m:[\\]]x,]x}",
    "#{m:*[,a[}", "#{m:a[,a[}", "#{m:[[:upper:][:digit:]]*,7x}",
    "#{m:[a-c-e]x,-x}", "#{m:\\,\\}", "#{m:a\\,a\\}", "#{m:[z-a]x,mx}",
    "#{m:*?*,x}", "#{m:*?*,}", "#{m:[[.a.]]x,ax}", "#{m:[[=a=]]x,ax}",
    "#{m:[[:alpha:]x,ax}", "#{m/i:[A-Z]x,mx}", "#{m/i:[a-z]X,Mx}", "#{m:.*,.hidden}",
    "#{m:*/b,a/b}", "#{m:?,é}", "#{m:[é]x,éx}", "#{m:[[:space:]],#{l: }}",
    # more regex
    "#{s/a{,2}/X/:@abcd}", "#{s/b{2,}/X/:@abcd}", "#{s/a{1/X/:@abcd}",
    "#{s/a{x}/X/:@abcd}", "#{s/a||b/X/:@abcd}", "#{s/(|a)/X/:@abcd}",
    "#{s/()/X/:@abcd}", "#{s/[[:alpha:]-z]/X/:@abcd}", "#{s/[a-]/X/:@abcd}",
    "#{s/[]a]/X/:@abcd}", "#{s/[^]a]/X/:@abcd}", "#{s/c**/X/:@abcd}",
    "#{s/c+?/X/:@abcd}", "#{s/^*/X/:@abcd}", "#{s/a|*b/X/:@abcd}",
    "#{s/\\<W/X/:@upper}", "#{s/o\\>/X/:@upper}", "#{s/\\Bo/X/:@upper}",
    "#{s/\\w+$/X/:@upper}", "#{s/[.]/X/:@rel}", "#{s/\\./X/:@rel}",
    "#{s/f.l/X/:@rel}", "#{s/(ab)*c/[\\1]/:@abcd}", "#{s/(a*)+/[\\1]/:@abcd}",
    "#{s/(a)\\1/X/:@abcd}", "#{s/o+/<\\0>/:@upper}", "#{s/(o)(r)?/<\\2>/:@upper}",
    "#{s/$/!/:@abcd}", "#{s/^$/!/:@empty}", "#{s/b|$/!/:@abcd}",
    "#{s/[[:upper:]]+/X/:@upper}", "#{s/\\s/X/:@upper}", "#{s/\\S+/X/:@upper}",
    "#{s/\\W/X/:@upper}", "#{s/ab|abc/X/:@abcd}", "#{s/(a|ab)(c|bcd)/[\\1,\\2]/:@abcd}",
    "#{s/.?/X/:@abcd}", "#{s/[b-c]*/X/:@abcd}", "#{s/\\`a/X/:@abcd}",
    "#{s/d\\'/X/:@abcd}", "#{s/a\\|b/X/:@abcd}", "#{s/(a)|b/[\\1]/:@abcd}",
    "#{s/a/\\n/:@abcd}", "#{s/./-/:@comb}", "#{s|a|b|:@abcd}",
    "#{m/r:^a{0}$,}", "#{s/[[:bogus:]]/X/:@abcd}", "#{s/[a/X/:@abcd}",
    "#{s/a)/X/:@abcd}", "#{s/)/X/:#{l:a)b}}",
    # unprintable and control characters
    "#{=2:@bad}", "#{=3:@bad}", "#{=5:@bad}", "#{p6:@bad}|", "#{n:@bad}",
    "#{=3:@ctl}", "#{=-2:@ctl}", "#{p5:@ctl}|", "#{w:@ctl}", "#{=/2/>:@ctl}",
    # wrappers and combinations
    "#{s|a|b|:@abcd}", "#{=|3|..|:@upper}", "#{t|f|%%H|:@ts}", "#{m|ri|:^A,abc}",
    "#{s/a/#{l:x}/:@abcd}", "#{b;s/l/L/:@path}", "#{d;=3:@path}", "#{q;=4:@shell}",
    "#{n;s/o/oo/:@upper}", "#{w;p10:x}", "#{E;=5:@fmt}", "#{l;=3:abcdef}",
    "#{l;s/a/b/:aaa}", "#{a;=1:65}", "#{c;=2:red}", "#{e|+|;p5:1,2}|",
    "#{==;p5:a,a}|", "#{=1:?1,abc,def}", "#{p3:?0,a,b}|", "#{=-99999:x}",
    "#{p100:x}|", "#{?@comma,#{@comma},x}", "#{E:@comma}", "#{N:}", "#{a:32}",
    "#{T:%%Y}", "#{E:%%Y}", "#{l:#{l:x}}", "#{E:#{l:#{l:x}}}", "#{=3;E:@fmt}",
    "#{s/fmt/#{l:##}/:session_name}", "#{q:@pct}", "#{?1,#{E:@pct},}",
    # nesting limit
    deep(97), deep(98), deep(99), deep(100), deep(101), deep(150),
    "#{E:" * 99 + "@x" + "}" * 99, "#{E:" * 100 + "@x" + "}" * 100,
    "#{=" + "#{e|+|:1," * 60 + "1" + "}" * 60 + ":@long}",
]

LS = [
    "#{session_name} %Y %% #{session_windows}", "#{t/f/%Y-%m-%d %H:%M:%S:@ts}",
    "#{T:@pct}", "#{E:@pct}", "#{l:%d}", "#{S:#S,}", "#{W:#I}",
    "#{P:#P}x", "[#{window_index}]", "#{N:two}", "#{N/s:fmt}", "%Z",
    "#{t/p:@ago3d}", "#{?#{==:#S,fmt},first,second}", "#S#{W:#{P:.}}",
    "#{t:@ts}", "#{T:#{l:%%}}",
]

# display-message passes modifier arguments through strftime again (at the
# current time), so fixed times are formatted through list-sessions.
LS += [t.replace("%%", "%") for t in DISPLAY if "t/f" in t or "t|f" in t]

FILTERS = [
    "1", "0", "", "#{==:#{session_name},fmt}", "#{m:o*,#{session_name}}",
    "#{session_windows}", "#{e|>|:#{session_windows},1}", "#{@zero}", "x",
    "#{!=:#S,fmt}", "#{N:two}", "%%",
]


def identifiers(templates):
    names = set(BASE)
    for t in templates:
        names.update(re.findall(r"[@A-Za-z_][A-Za-z0-9_@-]*", t))
    return sorted(names)


def query(cmd, names):
    """Values of names via `cmd + [-F|template]`: one dict per output line.

    A name that expands to nothing is recorded as an empty value if it exists
    (#{b:name} is then "."), and left out if tmux does not know it."""
    fmt = SEP.join("#{%s}%s#{b:%s}" % (n, SEP, n) for n in names)
    out = tmux(*cmd, fmt)
    rows = []
    for line in out.split("\n"):
        values = line.split(SEP)
        if len(values) != 2 * len(names):
            raise SystemExit("unexpected output for %r" % (cmd,))
        row = {}
        for k, n in enumerate(names):
            value, base = values[2 * k], values[2 * k + 1]
            if value != "" or base == ".":
                row[n] = value
        rows.append(row)
    return rows


def timed(run):
    """Runs run() until it starts and ends in the same second; returns (now, output).

    tmux reads the coarse clock, which can lag a few milliseconds behind ours, so
    a run starting just after a second boundary is retried too."""
    while True:
        before = time.time()
        out = run()
        after = time.time()
        if int(after) == int(before) and before - int(before) > 0.05:
            return int(before), out


def record():
    tmux("kill-server", check=False)
    tmux("new-session", "-d", "-s", "fmt", "-x", "80", "-y", "24", "-n", "first", SLEEP)
    tmux("split-window", "-d", "-t", "fmt:0", SLEEP)
    tmux("new-window", "-d", "-t", "fmt:1", "-n", "two", SLEEP)
    tmux("new-session", "-d", "-s", "other", "-x", "80", "-y", "24", SLEEP)
    now = int(time.time())
    for name, value in options(now):
        tmux("set", "-g", name, value)
    try:
        zone = tmux("display", "-p", "-t", "fmt:", "%z %Z")
        if zone != "+0530 ZPT":
            raise SystemExit("tmux is not in the expected time zone: %r" % zone)
        names = identifiers(DISPLAY + LS + FILTERS)
        top = query(["display", "-p", "-t", "fmt:"], names)[0]
        sessions = []
        for s in query(["list-sessions", "-F"], names):
            sname = s["session_name"]
            windows = []
            for w in query(["list-windows", "-t", sname, "-F"], names):
                target = "%s:%s" % (sname, w["window_index"])
                panes = [{"current": p.get("pane_active") == "1", "vars": p}
                         for p in query(["list-panes", "-t", target, "-F"], names)]
                windows.append({"current": w.get("window_active") == "1", "vars": w,
                                "panes": panes})
            sessions.append({"vars": s, "windows": windows})
        cases = []
        for t in DISPLAY:
            n, out = timed(lambda: tmux("display", "-p", "-t", "fmt:", t))
            cases.append({"cmd": "display", "template": t, "now": n, "output": out})
        for t in LS:
            n, out = timed(lambda: tmux("list-sessions", "-F", t))
            cases.append({"cmd": "ls", "template": t, "now": n, "output": out})
        for t in FILTERS:
            n, out = timed(lambda: tmux("list-sessions", "-f", t, "-F", "#{session_name}"))
            cases.append({"cmd": "filter", "template": t, "now": n, "output": out})
    finally:
        tmux("kill-server", check=False)
    return {
        "tmux": subprocess.run([TMUX, "-V"], capture_output=True, text=True).stdout.strip(),
        "tz": TZ,
        "zone": ZONE,
        "target_session": [s["vars"]["session_name"] for s in sessions].index("fmt"),
        "vars": top,
        "sessions": sessions,
        "cases": cases,
    }


def main():
    data = record()
    FIXTURE.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    print("wrote %s: %d cases" % (FIXTURE.relative_to(ROOT), len(data["cases"])))


if __name__ == "__main__":
    main()
