"""Headless commands for online tables (docs/protocol.md, "Running the server")::

    python -m ttr_desktop.net serve --host 127.0.0.1 --port 8765 --data DIR
    python -m ttr_desktop.net new --server ws://127.0.0.1:8765 --variant usa \\
        --seats remote,remote,bot:greedy [--seed N] [--options stations=true]
    python -m ttr_desktop.net bot --server ws://127.0.0.1:8765 --table ID --token TOKEN \\
        --level greedy
    python -m ttr_desktop.net save --server URL --host-token TOKEN
    python -m ttr_desktop.net bench [--tables 200] [--seats 2] [--level greedy] \\
        [--think 0.5] [--procs 1] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys

from ttr_desktop.net.protocol import BOT_LEVELS


def _options(text: str | None) -> dict:
    """'{"stations": true}' or 'stations=true,tunnels=false' as a dict."""
    if not text:
        return {}
    text = text.strip()
    if text.startswith("{"):
        value = json.loads(text)
        if not isinstance(value, dict):
            raise ValueError("--options must be a JSON object or name=value pairs")
        return value
    out = {}
    for pair in text.split(","):
        name, sep, raw = pair.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--options: {pair!r} is not name=value")
        try:
            out[name.strip()] = json.loads(raw)
        except ValueError:
            out[name.strip()] = raw.strip()
    return out


def _serve(args) -> int:
    from ttr_desktop.net.server import serve_forever

    def ready(url: str) -> None:
        print(f"listening on {url}", flush=True)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):
                pass
        await serve_forever(args.host, args.port, args.data, ready, stop,
                            bot_delay=args.bot_delay)

    try:
        asyncio.run(main())
    except OSError as exc:
        print(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    return 0


async def _new(args) -> dict:
    from ttr_desktop.net.client import AsyncTableClient

    async with AsyncTableClient(args.server) as client:
        created = await client.create(
            args.variant, [s.strip() for s in args.seats.split(",") if s.strip()],
            seed=args.seed, options=_options(args.options),
            **({"turn_timer": args.turn_timer} if args.turn_timer else {}))
    return {"table": created["table"], "invites": created["invites"],
            "tokens": created["tokens"], "host_token": created["host_token"]}


async def _bot(args) -> dict:
    from ttr_desktop.bots import make_bot
    from ttr_desktop.net.client import AsyncTableClient, TableError
    from websockets.exceptions import ConnectionClosed

    bot = make_bot(args.level, seed=args.bot_seed)
    loop = asyncio.get_running_loop()
    end = loop.time() + args.timeout
    since = None
    while True:   # reconnect after a lost connection (a restarted server)
        try:
            async with AsyncTableClient(args.server) as client:
                welcome = await client.hello(args.table, args.token, since=since)
                over = await client.play(bot, timeout=max(1.0, end - loop.time()))
                return {"seat": welcome["seat"], "scores": over["scores"],
                        "winners": over["winners"], "table": welcome["table"]}
        except (ConnectionClosed, TableError, OSError) as exc:
            if isinstance(exc, TableError) and exc.code:
                raise
            if loop.time() > end:
                raise TableError("gave up: the server did not come back") from None
            await asyncio.sleep(0.3)


async def _save(args) -> dict:
    from ttr_desktop.net.client import AsyncTableClient

    async with AsyncTableClient(args.server) as client:
        await client.send({"type": "host", "command": "save", "host_token": args.host_token})
        saved = await client.expect("saved")
    return {"table": saved["table"], "file": saved["file"]}


def _bench(args) -> int:
    from ttr_desktop.net import bench

    if args.worker:
        return bench.worker_main(args)
    if not 1 <= args.tables <= 5000 or not 1 <= args.seats <= 6:
        print("bench: --tables must be 1 to 5000 and --seats 1 to 6", file=sys.stderr)
        return 1
    try:
        result = bench.run_bench(args.tables, args.seats, args.level, args.variant,
                                 args.procs, args.timeout, args.seed, args.profile,
                                 args.think)
    except (RuntimeError, OSError) as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(result) if args.json else bench.describe(result), flush=True)
    return 0 if result["tables_lost"] == 0 else 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ttr_desktop.net",
                                     description="Online tables of ttr-desktop, headless.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("serve", help="serve tables until stopped")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this computer only)")
    p.add_argument("--port", type=int, default=8765, help="port (0: any free port)")
    p.add_argument("--data", required=True, help="folder for the tables (SQLite) and saves")
    p.add_argument("--bot-delay", type=float, default=0.0,
                   help="seconds a server bot waits before each move")
    p = sub.add_parser("new", help="create a table; prints its id, invites and tokens")
    p.add_argument("--server", required=True)
    p.add_argument("--variant", required=True)
    p.add_argument("--seats", required=True, help="e.g. remote,remote,bot:greedy")
    p.add_argument("--seed", type=int)
    p.add_argument("--options", help='name=value,... or a JSON object')
    p.add_argument("--turn-timer", type=int, help="seconds per decision (10-3600)")
    p = sub.add_parser("bot", help="play one seat with a bot to the end")
    p.add_argument("--server", required=True)
    p.add_argument("--table", required=True)
    p.add_argument("--token", required=True)
    p.add_argument("--level", default="greedy", choices=BOT_LEVELS)
    p.add_argument("--bot-seed", type=int, default=None)
    p.add_argument("--timeout", type=float, default=600.0)
    p = sub.add_parser("save", help="save a table (host) to the TOML save format, in the "
                                    "server's data folder (saves/)")
    p.add_argument("--server", required=True)
    p.add_argument("--host-token", required=True)
    p = sub.add_parser("bench", help="measure a server (its own process, 127.0.0.1) "
                                     "playing many tables of bots to the end")
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--seats", type=int, default=2)
    p.add_argument("--level", default="greedy", choices=BOT_LEVELS)
    p.add_argument("--variant", default="usa")
    p.add_argument("--procs", type=int, default=1, help="client processes (default 1)")
    p.add_argument("--seed", type=int, help="first table's seed (default: random)")
    p.add_argument("--timeout", type=float, default=600.0,
                   help="seconds before the run stops (unfinished tables count as lost)")
    p.add_argument("--think", type=float, default=0.0,
                   help="seconds each bot waits before a move (default 0: flat out)")
    p.add_argument("--profile", help="run the server under cProfile, statistics to this file")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--server", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.command == "serve":
        return _serve(args)
    if args.command == "bench":
        return _bench(args)
    from ttr_desktop.net.client import TableError
    try:
        job = {"new": _new, "bot": _bot, "save": _save}[args.command]
        print(json.dumps(asyncio.run(job(args))), flush=True)
    except (TableError, ValueError, OSError, asyncio.TimeoutError) as exc:
        print(f"{args.command}: {exc or type(exc).__name__}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
