"""Fake proxy.resource package."""
