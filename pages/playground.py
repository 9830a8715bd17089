import streamlit as st

from ui.common import page_setup

page_setup("playground")
st.title("playground")
st.info("This page is being built.")
