"""How the async vector env decides between polling a pipe and sleeping on it."""

import threading
import time
from multiprocessing import Pipe

from palaestra.vector._processes import read_soon


def send_later(conn, delay, payload=b"x"):
    timer = threading.Timer(delay, conn.send_bytes, args=(payload,))
    timer.start()
    return timer


def test_a_message_within_the_polling_window_keeps_polling():
    mine, theirs = Pipe()
    theirs.send_bytes(b"now")
    assert read_soon(mine, fast=True, spin=0.05) == (b"now", True)


def test_a_worker_keeps_polling_when_the_message_follows_a_missed_window_closely():
    mine, theirs = Pipe()
    timer = send_later(theirs, 0.12)
    data, fast = read_soon(mine, fast=True, spin=0.1)  # missed by ~20 ms, then waited < 100 ms
    timer.join()
    assert data == b"x" and fast


def test_the_parent_stops_polling_after_a_miss():
    """A parent that polled in vain is waiting on heavy workers: it must not take their core."""
    mine, theirs = Pipe()
    timer = send_later(theirs, 0.12)
    data, fast = read_soon(mine, fast=True, spin=0.1, miss_ends_polling=True)
    timer.join()
    assert data == b"x" and not fast


def test_a_slow_phase_sleeps_and_a_quick_message_starts_polling_again():
    mine, theirs = Pipe()
    timer = send_later(theirs, 0.3)
    start = time.perf_counter()
    assert read_soon(mine, fast=False, spin=0.1) == (b"x", False)  # slept ~0.3 s
    assert time.perf_counter() - start >= 0.25
    timer.join()
    theirs.send_bytes(b"y")
    assert read_soon(mine, fast=False, spin=0.1) == (b"y", True)
