"""Logical plans: one step per clause."""
