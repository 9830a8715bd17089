"""Navigation only: every page lives in pages/ and every decision in routing/."""
import streamlit as st

st.set_page_config(page_title="Query-routing playground", page_icon=":material/route:", layout="wide")

pages = {
    "Explore": [
        st.Page("pages/playground.py", title="Playground", icon=":material/bolt:", default=True),
        st.Page("pages/dates.py", title="Dates", icon=":material/calendar_month:"),
        st.Page("pages/catalog.py", title="Catalog", icon=":material/menu_book:"),
    ],
    "Improve": [
        st.Page("pages/coverage.py", title="Coverage", icon=":material/fact_check:"),
        st.Page("pages/tuner.py", title="Threshold tuner", icon=":material/tune:"),
        st.Page("pages/editor.py", title="Lexicon editor", icon=":material/edit_note:"),
    ],
}
st.navigation(pages).run()
