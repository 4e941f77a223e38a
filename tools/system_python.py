"""Shared by the tools/*.py scripts: when the running Python lacks a module a script needs, the
script runs itself again with Debian's /usr/bin/python3 (where numpy, h5py and matplotlib live on
these machines), at most once; guard: an environment variable per script that marks the rerun."""
import os
import sys

FALLBACK_PYTHON = "/usr/bin/python3"


def can_rerun(guard):
    """Whether the script may run itself again with FALLBACK_PYTHON."""
    return (
        not os.environ.get(guard)
        and os.path.exists(FALLBACK_PYTHON)
        and os.path.realpath(sys.executable) != os.path.realpath(FALLBACK_PYTHON)
    )


def rerun(guard):
    """Replace this process by the same script under FALLBACK_PYTHON."""
    os.environ[guard] = "1"
    os.execv(FALLBACK_PYTHON, [FALLBACK_PYTHON] + sys.argv)


def rerun_or_exit(guard, why):
    """Rerun under FALLBACK_PYTHON, or exit with the message why when that is not possible."""
    if not can_rerun(guard):
        sys.exit(why)
    rerun(guard)


def pyplot(guard, tool):
    """matplotlib.pyplot with the Agg backend; without matplotlib a rerun under FALLBACK_PYTHON,
    or exit saying what tool needs."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        rerun_or_exit(guard, f"{tool}: needs matplotlib (apt-get install python3-matplotlib)")
    return plt
