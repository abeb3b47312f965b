"""The one error ``tables`` raises for anything a user can cause (a bad argument, a damaged or
foreign file, a folder it cannot use): one line that names the problem. The command line turns
it into ``solver: error: ...`` and exit code 2, like its own ``InputError``."""


class TableError(ValueError):
    """A table request that cannot be served; ``str(error)`` is one line for the user."""
