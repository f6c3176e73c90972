"""Tests that run real engines (marker ``engine``); see conftest.py here."""
