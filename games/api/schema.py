"""Pieces of the OpenAPI document shared by its parts (``openapi``, ``openapi_chouette``)."""

from __future__ import annotations


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def json_body(schema: dict, description: str = "OK") -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


ERR = json_body(ref("Error"), "Refused: see the error code")
AUTH = [{"bearer": []}]
