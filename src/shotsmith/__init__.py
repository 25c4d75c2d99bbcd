"""shotsmith."""
