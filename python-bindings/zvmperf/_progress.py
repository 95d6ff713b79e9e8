"""zvmperf._progress - progress reporting and interruption of long evaluations (private).

sweep() hands C a zvp_progress_fn (sweep.h) built by Progress: C calls it from the calling
thread once at the start (done = points already in a resumed file) and after every block; a
nonzero return stops the sweep after that block with ZVP_ECANCELED, the partial file kept.
grid() evaluates in chunks and calls the same reporter between them.

progress= accepts None/False (nothing shown), True (a tqdm bar on stderr from python3-tqdm, or
a plain percentage line when tqdm is missing), or a callable(done, total) whose true return
value cancels. While a sweep runs in the main thread, SIGINT (Ctrl-C) only sets flags: C
reads Progress.stop (zvp_sweep_options.stop, zvp_eval_grid_stop) before each point, so the
sweep stops within about a second, and the caller raises KeyboardInterrupt; the previous
handler is restored afterwards. Python runs its own signal handlers only between bytecodes,
never during the C call, so the flag is set by a watcher thread that Python's C-level handler
wakes through signal.set_wakeup_fd (ctypes releases the GIL during the call).
"""
import ctypes
import os
import signal
import sys
import threading

from . import _clib as C
from ._args import _type_error

PROGRESS_FORMS = ("None, True (a tqdm bar) or a callable(done, total) whose true return "
                  "value cancels")


def check_progress(progress):
    """Validate progress= before anything runs."""
    if progress is None or progress is False or progress is True or callable(progress):
        return progress
    raise _type_error("progress", progress, PROGRESS_FORMS)


class _TextBar:
    """A one-line percentage on stderr (used when tqdm is not installed)."""

    def __init__(self, desc):
        self.desc, self.shown = desc, False

    def __call__(self, done, total):
        pct = 100.0 * done / total if total else 100.0
        sys.stderr.write("\r%s: %5.1f%% (%d/%d points)" % (self.desc, pct, done, total))
        sys.stderr.flush()
        self.shown = True
        return False

    def close(self):
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


class _TqdmBar:
    """A tqdm bar created at the first call (when the total is known)."""

    def __init__(self, tqdm, desc):
        self.tqdm, self.desc, self.bar = tqdm, desc, None

    def __call__(self, done, total):
        if self.bar is None:
            self.bar = self.tqdm(total=total, initial=done, unit="pt", unit_scale=total >= 100000,
                                 desc=self.desc, file=sys.stderr, dynamic_ncols=True)
        else:
            self.bar.update(done - self.bar.n)
        return False

    def close(self):
        if self.bar is not None:
            self.bar.close()


def reporter(progress, desc):
    """The callable(done, total) -> cancel? for a checked progress= value (None if none),
    with a close() method."""
    if progress is None or progress is False:
        return None
    if progress is True:
        try:
            from tqdm import tqdm
        except ImportError:
            return _TextBar(desc)
        return _TqdmBar(tqdm, desc)
    return progress


class Progress:
    """Context manager around one C sweep: .c_fn is the zvp_progress_fn to pass; after the
    call, .interrupted (SIGINT seen), .canceled (the caller's callable asked to stop),
    .error (an exception the callable raised, re-raised by the caller), .done / .total."""

    def __init__(self, progress, desc):
        self.report = reporter(progress, desc)
        self.interrupted = self.canceled = False
        self.error = None
        self.done = self.total = 0
        self.calls = 0
        self._old = None
        self._main = threading.current_thread() is threading.main_thread()
        self.c_fn = C.zvp_progress_fn(self._callback)
        self.stop = ctypes.c_int(0)  # read by C before each point; set on SIGINT
        self.stop_ptr = ctypes.pointer(self.stop)
        self._wake = None  # (read fd, write fd, previous wakeup fd, watcher thread)

    def _on_sigint(self, signum, frame):
        self.interrupted = True
        self.stop.value = 1

    def _watch(self, rfd, old_fd):
        """Watcher thread: a SIGINT byte from the wakeup fd sets the flags at once."""
        while True:
            try:
                data = os.read(rfd, 64)
            except OSError:
                return
            if not data:
                return
            if signal.SIGINT in data:
                self.stop.value = 1
                self.interrupted = True
            if old_fd >= 0:  # pass the bytes on (e.g. an asyncio loop's wakeup fd)
                try:
                    os.write(old_fd, data)
                except OSError:
                    pass

    def _start_watch(self):
        rfd, wfd = os.pipe()
        os.set_blocking(wfd, False)
        try:
            old_fd = signal.set_wakeup_fd(wfd)
        except (ValueError, OSError):
            os.close(rfd)
            os.close(wfd)
            return
        t = threading.Thread(target=self._watch, args=(rfd, old_fd), daemon=True,
                             name="zvmperf-sigint")
        t.start()
        self._wake = (rfd, wfd, old_fd, t)

    def _stop_watch(self):
        rfd, wfd, old_fd, t = self._wake
        self._wake = None
        signal.set_wakeup_fd(old_fd)
        os.close(wfd)  # the watcher reads EOF and ends
        t.join()
        os.close(rfd)

    def __enter__(self):
        if self._main:
            old = signal.getsignal(signal.SIGINT)
            # a handler not installed from Python (None) cannot be restored; an ignored
            # SIGINT stays ignored
            if old is not None and old is not signal.SIG_IGN:
                signal.signal(signal.SIGINT, self._on_sigint)
                self._old = old
                self._start_watch()
        return self

    def __exit__(self, *exc):
        if self._wake is not None:
            self._stop_watch()
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)
            self._old = None
        if isinstance(self.report, (_TextBar, _TqdmBar)):  # ours; a caller's callable is theirs
            self.report.close()
        return False

    def _callback(self, done, total, _user):
        # Runs inside the C call; an exception must not escape into ctypes.
        try:
            self.calls += 1
            self.done, self.total = int(done), int(total)
            if self._main:  # run a pending SIGINT handler now, not after the whole sweep
                ctypes.pythonapi.PyErr_CheckSignals()
            if self.report is not None and not (self.interrupted or self.canceled):
                if self.report(self.done, self.total):
                    self.canceled = True
        except KeyboardInterrupt:
            self.interrupted = True
        except BaseException as e:  # noqa: B902 - re-raised by the caller after C returns
            self.error = e
        return 1 if (self.interrupted or self.canceled or self.error is not None) else 0

    def step(self, done, total):
        """For chunked loops in Python (grid): report and say whether to stop."""
        return bool(self._callback(done, total, None))
