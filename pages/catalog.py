import streamlit as st

from ui.common import page_setup

page_setup("catalog")
st.title("catalog")
st.info("This page is being built.")
