"""Navigation only: every page lives in app_pages/ and every decision in routing/.

The folder is not called pages/: Streamlit would also discover that folder by itself, and a first
request to a deep link (/dates) right after start would then get the old file-name menu."""
from pathlib import Path

import streamlit as st

# A local favicon: a :material/...: page icon is fetched from fonts.gstatic.com on every load (and fails offline).
st.set_page_config(page_title="Query-routing playground", page_icon=str(Path(__file__).with_name("ui") / "favicon.png"), layout="wide")

pages = {
    "Explore": [
        st.Page("app_pages/playground.py", title="Playground", icon=":material/bolt:", default=True),
        st.Page("app_pages/dates.py", title="Dates", icon=":material/calendar_month:"),
        st.Page("app_pages/catalog.py", title="Catalog", icon=":material/menu_book:"),
    ],
    "Improve": [
        st.Page("app_pages/coverage.py", title="Coverage", icon=":material/fact_check:"),
        st.Page("app_pages/tuner.py", title="Threshold tuner", icon=":material/tune:"),
        st.Page("app_pages/editor.py", title="Lexicon editor", icon=":material/edit_note:"),
    ],
}
st.navigation(pages).run()
