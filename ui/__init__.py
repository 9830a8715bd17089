"""Streamlit-side helpers shared by the pages. Decisions stay in routing/; this only draws."""
