def hello() -> str:
    return "Hello from talltales!"
