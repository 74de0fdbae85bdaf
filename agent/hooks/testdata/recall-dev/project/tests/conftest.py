import pytest

from pantry.app import create_app


@pytest.fixture
def client():
    return create_app("pantry.testing").test_client()
