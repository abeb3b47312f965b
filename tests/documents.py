"""Editing a decoded JSON document in place, for tests that damage one field of a file."""

DELETE = object()       # as a value: remove the field


def edit(doc, path, value) -> None:
    """Set (or with DELETE, remove) the field at ``path``, a sequence of keys and indexes."""
    *parents, last = path
    for key in parents:
        doc = doc[key]
    if value is DELETE:
        del doc[last]
    else:
        doc[last] = value
