"""House profiles from files: reading a directory of profile documents (the I/O that rules_core
does not do), and noticing when the directory changes. Used by the server and the clients."""

from profile_files.load import (
    HOUSE_SUFFIXES,
    LoadedProfiles,
    load_profiles_dir,
    read_documents,
    registry_of,
    shippable,
)
from profile_files.watch import fingerprint

__all__ = [
    "HOUSE_SUFFIXES",
    "LoadedProfiles",
    "fingerprint",
    "load_profiles_dir",
    "read_documents",
    "registry_of",
    "shippable",
]
