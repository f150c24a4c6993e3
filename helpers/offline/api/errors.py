"""The one exception of the offline model: an API error, answered as OpenAI's error JSON.

What it leaves out on purpose: how the error reaches the caller (app.py turns it into a response).
"""

from __future__ import annotations


class ApiError(Exception):
    """An error the API reports as JSON: {"error": {"message", "type", "param", "code"}}.

    Example:
        >>> error = ApiError(400, "Missing required parameter: 'model'.", param="model")
        >>> error.status, error.body()
        (400, {'error': {'message': "Missing required parameter: 'model'.", 'type': 'invalid_request_error',
        'param': 'model', 'code': None}})
    """

    def __init__(self, status: int, message: str, type: str = "invalid_request_error",
                 param: str | None = None, code: str | None = None, headers: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.type, self.param, self.code = status, message, type, param, code
        self.headers = headers or {}

    def body(self) -> dict:
        """The JSON body of the error.

        Example:
            >>> ApiError(404, "Invalid URL").body()["error"]["type"]
            'invalid_request_error'
        """
        return {"error": {"message": self.message, "type": self.type, "param": self.param, "code": self.code}}
