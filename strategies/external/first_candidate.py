import json, sys
for line in sys.stdin:
    request = json.loads(line)
    first = request["candidates"][0]["id"]
    print(json.dumps({"seq": request["seq"], "instance": first, "reason": "first"}), flush=True)
