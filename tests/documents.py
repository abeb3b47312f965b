"""Editing a decoded JSON document in place, for tests that damage one field of a file."""


class _Delete:
    """The DELETE sentinel; its fixed repr keeps parametrized test ids the same in every
    process (pytest-xdist's workers must collect identical ids)."""

    def __repr__(self) -> str:
        return "DELETE"


DELETE = _Delete()      # as a value: remove the field


def edit(doc, path, value) -> None:
    """Set (or with DELETE, remove) the field at ``path``, a sequence of keys and indexes."""
    *parents, last = path
    for key in parents:
        doc = doc[key]
    if value is DELETE:
        del doc[last]
    else:
        doc[last] = value
