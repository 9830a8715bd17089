import streamlit as st

from ui.common import page_setup

page_setup("tuner")
st.title("tuner")
st.info("This page is being built.")
