import streamlit as st

from ui.common import page_setup

page_setup("coverage")
st.title("coverage")
st.info("This page is being built.")
