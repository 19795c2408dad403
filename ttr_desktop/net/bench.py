"""The table server under load (``python -m ttr_desktop.net bench``): not a test, a measure.

It starts a server as its own process on 127.0.0.1 (a fresh data folder, so nothing is
shared with the clients), creates ``tables`` tables of ``seats`` remote seats each, and
plays every seat with a bot (``level``) through the real protocol: each seat is its own
WebSocket connection that sees only what the server sends it. The clients run on asyncio
in this process, or split over ``procs`` client processes. All tables play at once, to
the end. Reported:

- ``actions_per_second``: actions the server carried out, over the wall time of the run;
- ``rtt_ms``: p50 / p95 / p99 / max of an action's round trip: from the moment a client
  sends its move to the moment it receives the ``state`` that answers it;
- ``server_rss_kb`` and ``memory_per_table_kb``: the server's resident memory
  (``/proc/<pid>/status``) before the first table (once a warm-up table has made it load
  the map and rules) and at its peak, and the difference divided by the tables;
- ``tables_lost``: tables that did not reach their end for every seat (should be 0);
- ``wall_seconds``, and the CPU time the server and the clients used.

``think``: seconds each bot waits before sending a move, on average (each wait drawn
from 0.5 to 1.5 times it, so the tables do not move in step; 0: flat out, the server is
saturated and the round trip mostly measures the queue of 200 tables' moves; a person
takes seconds, so ``--think 0.5`` is still a busier room than any real one).

Everything is bounded: a global timeout ends the run (unfinished tables count as lost),
and the server process is stopped at the end whatever happens.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

#: Connections opened at the same time while the tables are set up.
OPEN_AT_ONCE = 64


# ---------------------------------------------------------------------------
# the server process

def rss_kb(pid: int) -> int | None:
    """The resident memory of process ``pid`` in kB (Linux ``/proc``), or None."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time process ``pid`` has used (Linux ``/proc``), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class ServerProcess:
    """``python -m ttr_desktop.net serve`` on 127.0.0.1 in a fresh folder (``profile``:
    run it under cProfile and write the statistics there when it stops)."""

    def __init__(self, profile: str | None = None, timeout: float = 30.0) -> None:
        self.dir = tempfile.TemporaryDirectory(prefix="ttr-bench-")
        cmd = [sys.executable]
        if profile:
            cmd += ["-m", "cProfile", "-o", str(profile)]
        cmd += ["-m", "ttr_desktop.net", "serve", "--host", "127.0.0.1", "--port", "0",
                "--data", self.dir.name]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.url = ""
        found: list[str] = []
        reader = threading.Thread(target=lambda: found.append(self.proc.stdout.readline()),
                                  daemon=True)
        reader.start()
        reader.join(timeout)
        line = found[0] if found else ""
        if not line.startswith("listening on ws://"):
            self.stop()
            raise RuntimeError(f"the server did not start: {line!r}")
        self.url = line.split("listening on ", 1)[1].strip()
        self.peak = self.baseline = 0
        self._sampling = True
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()

    def measure_baseline(self) -> None:
        """The memory before the tables (call once the server is warmed up)."""
        self.peak = self.baseline = rss_kb(self.proc.pid) or 0
        self.cpu_before = cpu_seconds(self.proc.pid) or 0.0

    def _sample(self) -> None:
        while self._sampling and self.proc.poll() is None:
            now = rss_kb(self.proc.pid)
            if now:
                self.peak = max(self.peak, now)
            time.sleep(0.1)

    def stop(self) -> None:
        self._sampling = False
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream:
                stream.close()
        self.dir.cleanup()


# ---------------------------------------------------------------------------
# the clients

def _choose(bot, variant_map, view_json: dict, legal_json: list):
    from ttr_desktop.net.codec import view_from_json
    from ttr_desktop.rules import action_from_dict

    return bot.choose(view_from_json(view_json, variant_map),
                      [action_from_dict(a) for a in legal_json])


async def _seat_loop(ws, variant_map, bot, rtts: list[float], think: float = 0.0
                     ) -> dict[str, Any]:
    """Play one seat on an open, seated connection until the ``over`` message (waiting
    ``think`` seconds before each move, on average, like a person; not part of the round
    trip)."""
    loop = asyncio.get_running_loop()
    rng = random.Random(id(bot))
    acted = -1          # the version the last move was made on
    sent_at = 0.0
    last_version = -1
    while True:
        text = await ws.recv()
        now = time.perf_counter()
        msg = json.loads(text)
        kind = msg.get("type")
        if kind == "state":
            version = msg["version"]
            last_version = max(last_version, version)
            if sent_at and version > acted:
                rtts.append((now - sent_at) * 1000.0)
                sent_at = 0.0
            if msg["legal"] and version != acted:
                # The bot thinks on a worker thread, so this loop stays free to note the
                # moment each answer arrives for the other seats it plays.
                action = await loop.run_in_executor(None, _choose, bot, variant_map,
                                                    msg["view"], msg["legal"])
                acted = version
                if think:   # a person's pace, each move its own (so tables drift apart)
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                payload = json.dumps({"type": "action", "version": version,
                                      "action": action.to_dict()})
                sent_at = time.perf_counter()
                await ws.send(payload)
        elif kind == "over":
            return {"over": True, "version": last_version}
        elif kind == "error" and msg.get("code") not in ("stale",):
            return {"over": False, "version": last_version,
                    "error": f"{msg.get('code')}: {msg.get('message')}"}


async def _table(url: str, variant: str, seats: int, level: str, seed: int,
                 gate: asyncio.Semaphore, rtts: list[float], think: float = 0.0
                 ) -> dict[str, Any]:
    """Create one table, seat every seat on its own connection, play it to the end."""
    from websockets.asyncio.client import connect

    from ttr_desktop.bots import make_bot
    from ttr_desktop.net.codec import map_for
    from ttr_desktop.net.protocol import APP, MAX_SERVER_MESSAGE_BYTES, PROTOCOL_VERSION

    conns = []
    try:
        async with gate:
            for _ in range(seats):
                conns.append(await connect(url, max_size=MAX_SERVER_MESSAGE_BYTES,
                                           open_timeout=30, ping_interval=None,
                                           max_queue=None))
            await conns[0].send(json.dumps({
                "type": "create", "protocol": PROTOCOL_VERSION, "app": APP,
                "variant": variant, "seats": ["remote"] * seats, "seed": seed}))
            while True:
                created = json.loads(await conns[0].recv())
                if created.get("type") == "created":
                    break
                if created.get("type") == "error":
                    return {"over": False, "error": created.get("message"), "actions": 0}
        game_map = map_for(variant, {})
        for i, ws in enumerate(conns):
            await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION,
                                      "app": APP, "table": created["table"],
                                      "token": created["tokens"][i]}))
        results = await asyncio.gather(*(
            _seat_loop(ws, game_map, make_bot(level, seed=seed * 7 + i), rtts, think)
            for i, ws in enumerate(conns)))
        over = all(r["over"] for r in results)
        errors = [r["error"] for r in results if r.get("error")]
        return {"over": over, "actions": max(r["version"] for r in results),
                "error": errors[0] if errors else None}
    except Exception as exc:   # noqa: BLE001 - a lost table is reported, not raised
        return {"over": False, "actions": 0, "error": f"{type(exc).__name__}: {exc}"}
    finally:
        for ws in conns:
            if ws.transport is not None:
                ws.transport.abort()


async def warm_up(url: str, variant: str, seats: int) -> None:
    """One table created and left in its lobby: the server loads the map and the rules
    once, so the memory measured after it is what the tables themselves take."""
    from ttr_desktop.net.client import AsyncTableClient

    async with AsyncTableClient(url) as client:
        await client.create(variant, ["remote"] * seats)


async def play_tables(url: str, tables: int, seats: int, level: str, variant: str,
                      seed: int, timeout: float, think: float = 0.0) -> dict[str, Any]:
    """Play ``tables`` tables against the server at ``url``; the raw results."""
    rtts: list[float] = []
    cpu_start = time.process_time()
    gate = asyncio.Semaphore(max(1, OPEN_AT_ONCE // seats))
    tasks = [asyncio.create_task(_table(url, variant, seats, level, seed + i, gate, rtts,
                                        think))
             for i in range(tables)]
    done, pending = await asyncio.wait(tasks, timeout=timeout)
    for task in pending:
        task.cancel()
    results = [t.result() for t in tasks if t in done]
    lost = sum(not r["over"] for r in results) + len(pending)
    errors = [r["error"] for r in results if r.get("error")][:5]
    if pending:
        errors.append(f"{len(pending)} tables still playing at the {timeout:.0f} s timeout")
    return {"rtts": rtts, "actions": sum(r["actions"] for r in results if r["over"]),
            "over": sum(r["over"] for r in results), "lost": lost, "errors": errors,
            "cpu": time.process_time() - cpu_start}


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100.0 * (len(ordered) - 1))))
    return round(ordered[k], 2)


def run_bench(tables: int = 200, seats: int = 2, level: str = "greedy",
              variant: str = "usa", procs: int = 1, timeout: float = 600.0,
              seed: int | None = None, profile: str | None = None,
              think: float = 0.0) -> dict[str, Any]:
    """The whole benchmark; its figures as a dict (see the module's docstring)."""
    seed = random.randrange(1, 2 ** 40) if seed is None else seed
    server = ServerProcess(profile=profile)
    try:
        asyncio.run(asyncio.wait_for(warm_up(server.url, variant, seats), 60))
        server.measure_baseline()
    except BaseException:
        server.stop()
        raise
    started = time.perf_counter()
    try:
        if procs <= 1:
            raw = asyncio.run(play_tables(server.url, tables, seats, level, variant, seed,
                                          timeout, think))
        else:
            raw = _play_in_processes(server.url, tables, seats, level, variant, seed,
                                     timeout, procs, think)
        wall = time.perf_counter() - started
        peak = server.peak
        server_cpu = (cpu_seconds(server.proc.pid) or 0.0) - server.cpu_before
    finally:
        server.stop()
    rtts = raw["rtts"]
    return {
        "tables": tables, "seats": seats, "level": level, "variant": variant,
        "client_processes": max(1, procs), "seed": seed, "think_seconds": think,
        "actions": raw["actions"],
        "actions_per_second": round(raw["actions"] / wall, 1) if wall else None,
        "rtt_ms": {"p50": _percentile(rtts, 50), "p95": _percentile(rtts, 95),
                   "p99": _percentile(rtts, 99),
                   "max": round(max(rtts), 2) if rtts else None, "count": len(rtts)},
        "server_rss_kb": {"baseline": server.baseline, "peak": peak},
        "memory_per_table_kb": round((peak - server.baseline) / tables, 1) if tables else None,
        "tables_over": raw["over"], "tables_lost": raw["lost"],
        "wall_seconds": round(wall, 2), "server_cpu_seconds": round(server_cpu, 2),
        "client_cpu_seconds": round(raw.get("cpu", 0.0), 2), "errors": raw["errors"],
    }


def _play_in_processes(url: str, tables: int, seats: int, level: str, variant: str,
                       seed: int, timeout: float, procs: int, think: float
                       ) -> dict[str, Any]:
    """Split the tables over ``procs`` client processes (``bench --worker``)."""
    shares = [tables // procs + (1 if i < tables % procs else 0) for i in range(procs)]
    workers, offset = [], 0
    for share in shares:
        workers.append(subprocess.Popen(
            [sys.executable, "-m", "ttr_desktop.net", "bench", "--worker", "--server", url,
             "--tables", str(share), "--seats", str(seats), "--level", level,
             "--variant", variant, "--seed", str(seed + offset), "--timeout", str(timeout),
             "--think", str(think)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True))
        offset += share
    merged: dict[str, Any] = {"rtts": [], "actions": 0, "over": 0, "lost": 0, "errors": [],
                              "cpu": 0.0}
    for worker, share in zip(workers, shares):
        try:
            out, _ = worker.communicate(timeout=timeout + 30)
            part = json.loads(out)
        except (subprocess.TimeoutExpired, ValueError):
            worker.kill()
            worker.communicate()
            part = {"rtts": [], "actions": 0, "over": 0, "lost": share,
                    "errors": ["a client process did not answer"]}
        for key in ("rtts", "errors"):
            merged[key] += part[key]
        for key in ("actions", "over", "lost", "cpu"):
            merged[key] += part.get(key, 0)
    merged["errors"] = merged["errors"][:5]
    return merged


def worker_main(args) -> int:
    """One client process of a split run: its raw results as JSON on stdout."""
    raw = asyncio.run(play_tables(args.server, args.tables, args.seats, args.level,
                                  args.variant, args.seed, args.timeout, args.think))
    print(json.dumps(raw), flush=True)
    return 0


def describe(result: dict[str, Any]) -> str:
    """The figures in a few lines of text."""
    rtt = result["rtt_ms"]
    rss = result["server_rss_kb"]
    lines = [
        f"{result['tables']} tables x {result['seats']} seats ({result['variant']}, "
        f"{result['level']} bots thinking {result['think_seconds']} s a move, "
        f"{result['client_processes']} client process(es))",
        f"  wall time        {result['wall_seconds']} s",
        f"  actions          {result['actions']} ({result['actions_per_second']} per second)",
        f"  round trip (ms)  p50 {rtt['p50']}  p95 {rtt['p95']}  p99 {rtt['p99']}  "
        f"max {rtt['max']}  ({rtt['count']} actions)",
        f"  server memory    {rss['baseline']} kB -> {rss['peak']} kB peak: "
        f"{result['memory_per_table_kb']} kB per table",
        f"  tables lost      {result['tables_lost']} (finished: {result['tables_over']})",
        f"  CPU time         server {result['server_cpu_seconds']} s, clients "
        f"{result['client_cpu_seconds']} s",
    ]
    lines += [f"  error: {e}" for e in result["errors"]]
    return "\n".join(lines)
