"""The one error ``tables`` raises for anything a user can cause (a bad argument, a damaged or
foreign file, a folder it cannot use): one line that names the problem. The command line turns
it into ``solver: error: ...`` and exit code 2, like its own ``InputError``."""


class TableError(ValueError):
    """A table request that cannot be served; ``str(error)`` is one line for the user."""


def shown(value, limit: int = 80) -> str:
    """How a message shows a value it refuses: its repr, cut to about ``limit`` characters by
    its two ends; a whole number too long for Python to print (4,300 digits and more) by its
    size."""
    if isinstance(value, int) and value.bit_length() > 4 * limit:
        return f"a whole number of {value.bit_length():,} bits"
    try:
        text = repr(value)
    except Exception:       # a repr that fails must not hide the error being reported
        text = f"a {type(value).__name__}"
    if len(text) <= limit:
        return text
    return f"{text[:limit - 20]}...{text[-12:]} ({len(text):,} characters)"
