import streamlit as st

from ui.common import page_setup

page_setup("dates")
st.title("dates")
st.info("This page is being built.")
