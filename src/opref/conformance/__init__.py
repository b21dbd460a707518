"""Generating and running conformance tests."""
