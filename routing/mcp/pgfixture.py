"""A throwaway PostgreSQL cluster for the postgres power (the reference server
@modelcontextprotocol/server-postgres needs a real database): Debian's `postgresql` binaries,
initdb into a folder, listening on 127.0.0.1:PORT only (its socket in the same folder), trust
authentication for local connections, and database `powers` loaded from the powers' sample shop
(lexicons/powers/sample/sample.sql, the sqlite power's data too).

    cluster = PgCluster(folder, port).start()   # url: postgresql://postgres@127.0.0.1:PORT/powers
    cluster.stop()                              # pg_ctl stop -m immediate, folder removed

PostgreSQL refuses to run as root: as root, every step runs as the `postgres` system user (runuser).
`python -m routing mcp-postgres` runs one in the foreground until Ctrl-C.
"""
from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

FIXTURE_SQL = Path(__file__).resolve().parents[2] / "lexicons" / "powers" / "sample" / "sample.sql"
DATABASE = "powers"
SYSTEM_USER = "postgres"


class PgUnavailable(RuntimeError):
    """PostgreSQL's server programs are not on this machine (apt-get install postgresql)."""


def pg_bin() -> Path:
    """The folder of Debian's PostgreSQL server programs (initdb, pg_ctl), newest version first."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent
    raise PgUnavailable("PostgreSQL is not installed (initdb not found): apt-get install postgresql")


class PgCluster:
    def __init__(self, folder: str | Path, port: int):
        self.folder = Path(folder).resolve()
        self.port = int(port)
        self.bin = pg_bin()
        self.as_root = os.geteuid() == 0

    @property
    def url(self) -> str:
        return f"postgresql://{SYSTEM_USER if self.as_root else os.environ.get('USER', 'postgres')}@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, *args: str, timeout: float = 60.0, stdin: bytes | None = None) -> subprocess.CompletedProcess:
        command = list(args)
        if self.as_root:
            command = ["runuser", "-u", SYSTEM_USER, "--", *command]
        return subprocess.run(command, input=stdin, capture_output=True, timeout=timeout, check=True,
                              cwd="/", env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8"})

    def start(self) -> "PgCluster":
        data = self.folder / "data"
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.as_root:
            shutil.chown(self.folder, SYSTEM_USER, SYSTEM_USER)
        user = SYSTEM_USER if self.as_root else os.environ.get("USER", "postgres")
        if not (data / "PG_VERSION").exists():
            self._run(str(self.bin / "initdb"), "-D", str(data), "-U", user, "--auth=trust", "-E", "UTF8", "--no-sync")
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off -c shared_buffers=16MB -c max_connections=20"
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-l", str(self.folder / "server.log"), "-o", options, "-w", "-t", "60", "start")
        except subprocess.CalledProcessError as exc:
            log = (self.folder / "server.log").read_text(errors="replace")[-800:] if (self.folder / "server.log").exists() else ""
            raise RuntimeError(f"PostgreSQL did not start on port {self.port}: {exc.stderr.decode(errors='replace')} {log}") from None
        psql = str(self.bin / "psql") if (self.bin / "psql").exists() else "psql"
        base = [psql, "-h", "127.0.0.1", "-p", str(self.port), "-U", user, "-v", "ON_ERROR_STOP=1", "-q"]
        exists = self._run(*base, "-d", "postgres", "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE}'").stdout.strip()
        if not exists:
            self._run(*base, "-d", "postgres", "-c", f"CREATE DATABASE {DATABASE}")
            self._run(*base, "-d", DATABASE, "-f", "-", stdin=FIXTURE_SQL.read_bytes())
        return self

    def stop(self, *, remove: bool = True) -> None:
        data = self.folder / "data"
        if (data / "postmaster.pid").exists():
            try:
                self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "-t", "30", "stop")
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
                pid = int((data / "postmaster.pid").read_text().split()[0])
                os.kill(pid, signal.SIGKILL)
        if remove:
            shutil.rmtree(self.folder, ignore_errors=True)


def serve_forever(folder: str, *, port: int) -> int:
    """`python -m routing mcp-postgres`: start, print the URL the postgres power wants, wait for Ctrl-C."""
    cluster = PgCluster(folder, port).start()
    print(f"PostgreSQL on 127.0.0.1:{port}, database {DATABASE}. For the postgres power:\n"
          f"  export ROUTING_POSTGRES_URL={cluster.url}\nCtrl-C stops it (and removes {cluster.folder}).", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()
    return 0
