// llama-server process management and its HTTP client. (See issue 4.)
