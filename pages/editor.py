import streamlit as st

from ui.common import page_setup

page_setup("editor")
st.title("editor")
st.info("This page is being built.")
