"""One module per revision, in the order of their numbers (see the package above)."""
