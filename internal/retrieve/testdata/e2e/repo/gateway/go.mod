module example.com/skiff/gateway

go 1.22
