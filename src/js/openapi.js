// The OpenAPI 3.1 document of the eight endpoints and the challenge page, as
// the core renders it from its route table (src/gateway/openapi.rs). It ships
// here, in the JS layer, so the WebAssembly module does not carry it;
// tests/openapi_js.rs checks the two are the same. Written by
// `ORDERPAY_WRITE_OPENAPI=1 cargo test --test openapi_js`: do not edit.
const DOCUMENT = `{
  "openapi": "3.1.0",
  "info": {
    "title": "orderpay",
    "version": "0.1.0",
    "license": {
      "name": "MIT OR Apache-2.0",
      "identifier": "MIT OR Apache-2.0"
    },
    "contact": {
      "name": "orderpay",
      "url": "https://example.invalid/orderpay"
    },
    "description": "The order and payment service: eight endpoints behind one gateway, every answer in the {code, msg, data} envelope. Code 0 is success, -1 a business rejection (HTTP 200, or 409 when the payment's state forbids it), and a malformed request gets its HTTP status as the code. Beside them, a challenged payment's 3-D Secure challenge page, which answers HTML."
  },
  "servers": [
    {
      "url": "http://127.0.0.1:4010"
    }
  ],
  "tags": [
    {
      "name": "order",
      "description": "Orders: create, read, mark paid, delete"
    },
    {
      "name": "payment",
      "description": "Payments: pay, read, refund, and the challenge page"
    },
    {
      "name": "test",
      "description": "Test data"
    }
  ],
  "security": [],
  "paths": {
    "/api/order/create": {
      "post": {
        "operationId": "createOrder",
        "summary": "Create an order",
        "description": "A new order in status CREATED, with an id \`ORD-\` and 8 characters; a price not above 0 is refused.",
        "tags": [
          "order"
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/X-User-Id"
          },
          {
            "$ref": "#/components/parameters/X-B3-TraceId"
          },
          {
            "$ref": "#/components/parameters/X-B3-SpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-ParentSpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-Sampled"
          },
          {
            "$ref": "#/components/parameters/X-B3-Flags"
          },
          {
            "$ref": "#/components/parameters/b3"
          },
          {
            "$ref": "#/components/parameters/traceparent"
          },
          {
            "$ref": "#/components/parameters/Idempotency-Key"
          }
        ],
        "responses": {
          "200": {
            "description": "Code 0 and msg \`success\`; or code -1 with data null for a business rejection: \`price must be > 0\`",
            "headers": {
              "x-b3-traceid": {
                "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
                }
              },
              "x-b3-spanid": {
                "description": "The gateway's span.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-parentspanid": {
                "description": "The caller's span, when one came in.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-sampled": {
                "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
                "schema": {
                  "type": "string",
                  "pattern": "^[01]$"
                }
              },
              "traceparent": {
                "description": "The same trace context in W3C form.",
                "schema": {
                  "type": "string",
                  "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
                }
              },
              "x-sim-duration-ms": {
                "description": "The simulated time the request took, in ms.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              },
              "idempotent-replayed": {
                "description": "true on a replay: the answer kept under the request's Idempotency-Key, sent again; nothing ran.",
                "schema": {
                  "type": "string",
                  "enum": [
                    "true"
                  ]
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "code",
                    "msg",
                    "data"
                  ],
                  "properties": {
                    "code": {
                      "type": "integer",
                      "enum": [
                        0,
                        -1
                      ]
                    },
                    "msg": {
                      "type": "string"
                    },
                    "data": {
                      "anyOf": [
                        {
                          "$ref": "#/components/schemas/Order"
                        },
                        {
                          "type": "null"
                        }
                      ]
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Error400"
          },
          "404": {
            "$ref": "#/components/responses/Error404"
          },
          "405": {
            "$ref": "#/components/responses/Error405"
          },
          "413": {
            "$ref": "#/components/responses/Error413"
          },
          "414": {
            "$ref": "#/components/responses/Error414"
          },
          "415": {
            "$ref": "#/components/responses/Error415"
          },
          "431": {
            "$ref": "#/components/responses/Error431"
          },
          "500": {
            "$ref": "#/components/responses/Error500"
          },
          "507": {
            "$ref": "#/components/responses/Error507"
          }
        },
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewOrder"
              }
            }
          }
        }
      }
    },
    "/api/order/{orderId}": {
      "get": {
        "operationId": "getOrder",
        "summary": "Read an order",
        "description": "The order with this id, as it is now.",
        "tags": [
          "order"
        ],
        "parameters": [
          {
            "name": "orderId",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "$ref": "#/components/parameters/X-User-Id"
          },
          {
            "$ref": "#/components/parameters/X-B3-TraceId"
          },
          {
            "$ref": "#/components/parameters/X-B3-SpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-ParentSpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-Sampled"
          },
          {
            "$ref": "#/components/parameters/X-B3-Flags"
          },
          {
            "$ref": "#/components/parameters/b3"
          },
          {
            "$ref": "#/components/parameters/traceparent"
          }
        ],
        "responses": {
          "200": {
            "description": "Code 0 and msg \`success\`; or code -1 with data null for a business rejection: \`Order not found\`",
            "headers": {
              "x-b3-traceid": {
                "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
                }
              },
              "x-b3-spanid": {
                "description": "The gateway's span.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-parentspanid": {
                "description": "The caller's span, when one came in.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-sampled": {
                "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
                "schema": {
                  "type": "string",
                  "pattern": "^[01]$"
                }
              },
              "traceparent": {
                "description": "The same trace context in W3C form.",
                "schema": {
                  "type": "string",
                  "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
                }
              },
              "x-sim-duration-ms": {
                "description": "The simulated time the request took, in ms.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "code",
                    "msg",
                    "data"
                  ],
                  "properties": {
                    "code": {
                      "type": "integer",
                      "enum": [
                        0,
                        -1
                      ]
                    },
                    "msg": {
                      "type": "string"
                    },
                    "data": {
                      "anyOf": [
                        {
                          "$ref": "#/components/schemas/Order"
                        },
                        {
                          "type": "null"
                        }
                      ]
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Error400"
          },
          "404": {
            "$ref": "#/components/responses/Error404"
          },
          "405": {
            "$ref": "#/components/responses/Error405"
          },
          "414": {
            "$ref": "#/components/responses/Error414"
          },
          "431": {
            "$ref": "#/components/responses/Error431"
          },
          "500": {
            "$ref": "#/components/responses/Error500"
          }
        }
      }
    },
    "/api/order/{orderId}/pay": {
      "post": {
        "operationId": "markOrderPaid",
        "summary": "Mark an order paid",
        "description": "Moves a CREATED order to PAID. Paying through the payment endpoint does not do this by itself.",
        "tags": [
          "order"
        ],
        "parameters": [
          {
            "name": "orderId",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "$ref": "#/components/parameters/X-User-Id"
          },
          {
            "$ref": "#/components/parameters/X-B3-TraceId"
          },
          {
            "$ref": "#/components/parameters/X-B3-SpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-ParentSpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-Sampled"
          },
          {
            "$ref": "#/components/parameters/X-B3-Flags"
          },
          {
            "$ref": "#/components/parameters/b3"
          },
          {
            "$ref": "#/components/parameters/traceparent"
          },
          {
            "$ref": "#/components/parameters/Idempotency-Key"
          }
        ],
        "responses": {
          "200": {
            "description": "Code 0 and msg \`success\`; or code -1 with data null for a business rejection: \`Order not found\`, \`Order already paid\`",
            "headers": {
              "x-b3-traceid": {
                "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
                }
              },
              "x-b3-spanid": {
                "description": "The gateway's span.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-parentspanid": {
                "description": "The caller's span, when one came in.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-sampled": {
                "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
                "schema": {
                  "type": "string",
                  "pattern": "^[01]$"
                }
              },
              "traceparent": {
                "description": "The same trace context in W3C form.",
                "schema": {
                  "type": "string",
                  "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
                }
              },
              "x-sim-duration-ms": {
                "description": "The simulated time the request took, in ms.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              },
              "idempotent-replayed": {
                "description": "true on a replay: the answer kept under the request's Idempotency-Key, sent again; nothing ran.",
                "schema": {
                  "type": "string",
                  "enum": [
                    "true"
                  ]
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "code",
                    "msg",
                    "data"
                  ],
                  "properties": {
                    "code": {
                      "type": "integer",
                      "enum": [
                        0,
                        -1
                      ]
                    },
                    "msg": {
                      "type": "string"
                    },
                    "data": {
                      "type": "null"
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Error400"
          },
          "404": {
            "$ref": "#/components/responses/Error404"
          },
          "405": {
            "$ref": "#/components/responses/Error405"
          },
          "414": {
            "$ref": "#/components/responses/Error414"
          },
          "431": {
            "$ref": "#/components/responses/Error431"
          },
          "500": {
            "$ref": "#/components/responses/Error500"
          },
          "507": {
            "$ref": "#/components/responses/Error507"
          }
        }
      }
    },
    "/api/order/delete/{orderId}": {
      "post": {
        "operationId": "deleteOrder",
        "summary": "Delete an order",
        "description": "Deletes an order that is not paid; the delete uses POST, as the spec fixes.",
        "tags": [
          "order"
        ],
        "parameters": [
          {
            "name": "orderId",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "$ref": "#/components/parameters/X-User-Id"
          },
          {
            "$ref": "#/components/parameters/X-B3-TraceId"
          },
          {
            "$ref": "#/components/parameters/X-B3-SpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-ParentSpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-Sampled"
          },
          {
            "$ref": "#/components/parameters/X-B3-Flags"
          },
          {
            "$ref": "#/components/parameters/b3"
          },
          {
            "$ref": "#/components/parameters/traceparent"
          },
          {
            "$ref": "#/components/parameters/Idempotency-Key"
          }
        ],
        "responses": {
          "200": {
            "description": "Code 0 and msg \`success\`; or code -1 with data null for a business rejection: \`Order not found\`, \`Paid order cannot be deleted\`",
            "headers": {
              "x-b3-traceid": {
                "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
                }
              },
              "x-b3-spanid": {
                "description": "The gateway's span.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-parentspanid": {
                "description": "The caller's span, when one came in.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-sampled": {
                "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
                "schema": {
                  "type": "string",
                  "pattern": "^[01]$"
                }
              },
              "traceparent": {
                "description": "The same trace context in W3C form.",
                "schema": {
                  "type": "string",
                  "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
                }
              },
              "x-sim-duration-ms": {
                "description": "The simulated time the request took, in ms.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              },
              "idempotent-replayed": {
                "description": "true on a replay: the answer kept under the request's Idempotency-Key, sent again; nothing ran.",
                "schema": {
                  "type": "string",
                  "enum": [
                    "true"
                  ]
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "code",
                    "msg",
                    "data"
                  ],
                  "properties": {
                    "code": {
                      "type": "integer",
                      "enum": [
                        0,
                        -1
                      ]
                    },
                    "msg": {
                      "type": "string"
                    },
                    "data": {
                      "type": "null"
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Error400"
          },
          "404": {
            "$ref": "#/components/responses/Error404"
          },
          "405": {
            "$ref": "#/components/responses/Error405"
          },
          "414": {
            "$ref": "#/components/responses/Error414"
          },
          "431": {
            "$ref": "#/components/responses/Error431"
          },
          "500": {
            "$ref": "#/components/responses/Error500"
          },
          "507": {
            "$ref": "#/components/responses/Error507"
          }
        }
      }
    },
    "/api/payment/pay": {
      "post": {
        "operationId": "pay",
        "summary": "Pay for an order through the simulated third party",
        "description": "A payment in status SUCCESS, or, for about 30% of attempts, the business error \`Third party payment failed\`. X-Sim-Outcome or the admin API's forceNext decides an attempt instead of the seeded draw.",
        "tags": [
          "payment"
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/X-User-Id"
          },
          {
            "$ref": "#/components/parameters/X-B3-TraceId"
          },
          {
            "$ref": "#/components/parameters/X-B3-SpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-ParentSpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-Sampled"
          },
          {
            "$ref": "#/components/parameters/X-B3-Flags"
          },
          {
            "$ref": "#/components/parameters/b3"
          },
          {
            "$ref": "#/components/parameters/traceparent"
          },
          {
            "$ref": "#/components/parameters/X-Sim-Outcome"
          },
          {
            "$ref": "#/components/parameters/Idempotency-Key"
          }
        ],
        "responses": {
          "200": {
            "description": "Code 0 and msg \`success\`; or code -1 with data null for a business rejection: \`Order not found\`, \`amount must be > 0\`, \`Third party payment failed\`",
            "headers": {
              "x-b3-traceid": {
                "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
                }
              },
              "x-b3-spanid": {
                "description": "The gateway's span.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-parentspanid": {
                "description": "The caller's span, when one came in.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-sampled": {
                "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
                "schema": {
                  "type": "string",
                  "pattern": "^[01]$"
                }
              },
              "traceparent": {
                "description": "The same trace context in W3C form.",
                "schema": {
                  "type": "string",
                  "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
                }
              },
              "x-sim-duration-ms": {
                "description": "The simulated time the request took, in ms.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              },
              "idempotent-replayed": {
                "description": "true on a replay: the answer kept under the request's Idempotency-Key, sent again; nothing ran.",
                "schema": {
                  "type": "string",
                  "enum": [
                    "true"
                  ]
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "code",
                    "msg",
                    "data"
                  ],
                  "properties": {
                    "code": {
                      "type": "integer",
                      "enum": [
                        0,
                        -1
                      ]
                    },
                    "msg": {
                      "type": "string"
                    },
                    "data": {
                      "anyOf": [
                        {
                          "$ref": "#/components/schemas/Payment"
                        },
                        {
                          "type": "null"
                        }
                      ]
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Error400"
          },
          "404": {
            "$ref": "#/components/responses/Error404"
          },
          "405": {
            "$ref": "#/components/responses/Error405"
          },
          "409": {
            "$ref": "#/components/responses/Error409"
          },
          "413": {
            "$ref": "#/components/responses/Error413"
          },
          "414": {
            "$ref": "#/components/responses/Error414"
          },
          "415": {
            "$ref": "#/components/responses/Error415"
          },
          "431": {
            "$ref": "#/components/responses/Error431"
          },
          "500": {
            "$ref": "#/components/responses/Error500"
          },
          "507": {
            "$ref": "#/components/responses/Error507"
          }
        },
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewPayment"
              }
            }
          }
        }
      }
    },
    "/api/payment/{paymentId}": {
      "get": {
        "operationId": "getPayment",
        "summary": "Read a payment",
        "description": "The payment with this id, as it is now.",
        "tags": [
          "payment"
        ],
        "parameters": [
          {
            "name": "paymentId",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "$ref": "#/components/parameters/X-User-Id"
          },
          {
            "$ref": "#/components/parameters/X-B3-TraceId"
          },
          {
            "$ref": "#/components/parameters/X-B3-SpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-ParentSpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-Sampled"
          },
          {
            "$ref": "#/components/parameters/X-B3-Flags"
          },
          {
            "$ref": "#/components/parameters/b3"
          },
          {
            "$ref": "#/components/parameters/traceparent"
          }
        ],
        "responses": {
          "200": {
            "description": "Code 0 and msg \`success\`; or code -1 with data null for a business rejection: \`Payment not found\`",
            "headers": {
              "x-b3-traceid": {
                "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
                }
              },
              "x-b3-spanid": {
                "description": "The gateway's span.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-parentspanid": {
                "description": "The caller's span, when one came in.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-sampled": {
                "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
                "schema": {
                  "type": "string",
                  "pattern": "^[01]$"
                }
              },
              "traceparent": {
                "description": "The same trace context in W3C form.",
                "schema": {
                  "type": "string",
                  "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
                }
              },
              "x-sim-duration-ms": {
                "description": "The simulated time the request took, in ms.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "code",
                    "msg",
                    "data"
                  ],
                  "properties": {
                    "code": {
                      "type": "integer",
                      "enum": [
                        0,
                        -1
                      ]
                    },
                    "msg": {
                      "type": "string"
                    },
                    "data": {
                      "anyOf": [
                        {
                          "$ref": "#/components/schemas/Payment"
                        },
                        {
                          "type": "null"
                        }
                      ]
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Error400"
          },
          "404": {
            "$ref": "#/components/responses/Error404"
          },
          "405": {
            "$ref": "#/components/responses/Error405"
          },
          "414": {
            "$ref": "#/components/responses/Error414"
          },
          "431": {
            "$ref": "#/components/responses/Error431"
          },
          "500": {
            "$ref": "#/components/responses/Error500"
          }
        }
      }
    },
    "/api/payment/refund/{paymentId}": {
      "post": {
        "operationId": "refund",
        "summary": "Refund a payment",
        "description": "Moves a SUCCESS payment to REFUNDED; any other status is refused.",
        "tags": [
          "payment"
        ],
        "parameters": [
          {
            "name": "paymentId",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "$ref": "#/components/parameters/X-User-Id"
          },
          {
            "$ref": "#/components/parameters/X-B3-TraceId"
          },
          {
            "$ref": "#/components/parameters/X-B3-SpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-ParentSpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-Sampled"
          },
          {
            "$ref": "#/components/parameters/X-B3-Flags"
          },
          {
            "$ref": "#/components/parameters/b3"
          },
          {
            "$ref": "#/components/parameters/traceparent"
          },
          {
            "$ref": "#/components/parameters/Idempotency-Key"
          }
        ],
        "responses": {
          "200": {
            "description": "Code 0 and msg \`success\`; or code -1 with data null for a business rejection: \`Payment not found\`, \`Only success payment can be refunded\`",
            "headers": {
              "x-b3-traceid": {
                "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
                }
              },
              "x-b3-spanid": {
                "description": "The gateway's span.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-parentspanid": {
                "description": "The caller's span, when one came in.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-sampled": {
                "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
                "schema": {
                  "type": "string",
                  "pattern": "^[01]$"
                }
              },
              "traceparent": {
                "description": "The same trace context in W3C form.",
                "schema": {
                  "type": "string",
                  "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
                }
              },
              "x-sim-duration-ms": {
                "description": "The simulated time the request took, in ms.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              },
              "idempotent-replayed": {
                "description": "true on a replay: the answer kept under the request's Idempotency-Key, sent again; nothing ran.",
                "schema": {
                  "type": "string",
                  "enum": [
                    "true"
                  ]
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "code",
                    "msg",
                    "data"
                  ],
                  "properties": {
                    "code": {
                      "type": "integer",
                      "enum": [
                        0,
                        -1
                      ]
                    },
                    "msg": {
                      "type": "string"
                    },
                    "data": {
                      "type": "null"
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Error400"
          },
          "404": {
            "$ref": "#/components/responses/Error404"
          },
          "405": {
            "$ref": "#/components/responses/Error405"
          },
          "414": {
            "$ref": "#/components/responses/Error414"
          },
          "431": {
            "$ref": "#/components/responses/Error431"
          },
          "500": {
            "$ref": "#/components/responses/Error500"
          },
          "507": {
            "$ref": "#/components/responses/Error507"
          }
        }
      }
    },
    "/api/test/order/batch": {
      "get": {
        "operationId": "testOrderBatch",
        "summary": "Create, pay and mark paid \`count\` orders, as test data",
        "description": "Runs the typical flow \`count\` times (create, pay, mark paid) and reports how many payments succeeded and failed, with the ids of the orders.",
        "tags": [
          "test"
        ],
        "parameters": [
          {
            "name": "count",
            "in": "query",
            "required": true,
            "description": "How many orders, digits only.",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 10000
            }
          },
          {
            "$ref": "#/components/parameters/X-User-Id"
          },
          {
            "$ref": "#/components/parameters/X-B3-TraceId"
          },
          {
            "$ref": "#/components/parameters/X-B3-SpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-ParentSpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-Sampled"
          },
          {
            "$ref": "#/components/parameters/X-B3-Flags"
          },
          {
            "$ref": "#/components/parameters/b3"
          },
          {
            "$ref": "#/components/parameters/traceparent"
          }
        ],
        "responses": {
          "200": {
            "description": "Code 0 and msg \`success\`",
            "headers": {
              "x-b3-traceid": {
                "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
                }
              },
              "x-b3-spanid": {
                "description": "The gateway's span.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-parentspanid": {
                "description": "The caller's span, when one came in.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-sampled": {
                "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
                "schema": {
                  "type": "string",
                  "pattern": "^[01]$"
                }
              },
              "traceparent": {
                "description": "The same trace context in W3C form.",
                "schema": {
                  "type": "string",
                  "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
                }
              },
              "x-sim-duration-ms": {
                "description": "The simulated time the request took, in ms.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "code",
                    "msg",
                    "data"
                  ],
                  "properties": {
                    "code": {
                      "type": "integer",
                      "enum": [
                        0,
                        -1
                      ]
                    },
                    "msg": {
                      "type": "string"
                    },
                    "data": {
                      "anyOf": [
                        {
                          "$ref": "#/components/schemas/BatchReport"
                        },
                        {
                          "type": "null"
                        }
                      ]
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Error400"
          },
          "404": {
            "$ref": "#/components/responses/Error404"
          },
          "405": {
            "$ref": "#/components/responses/Error405"
          },
          "414": {
            "$ref": "#/components/responses/Error414"
          },
          "431": {
            "$ref": "#/components/responses/Error431"
          },
          "500": {
            "$ref": "#/components/responses/Error500"
          },
          "507": {
            "$ref": "#/components/responses/Error507"
          }
        }
      }
    },
    "/api/payment/{paymentId}/challenge": {
      "get": {
        "operationId": "challengePage",
        "summary": "The 3-D Secure challenge page of a challenged payment",
        "description": "A page, not an envelope: the payment's \`nextAction.url\`, served for a payment that is or was challenged (any other payment's path is a 404, no route). While the payment is REQUIRES_ACTION it has three buttons, Complete, Fail and Cancel, each a form posting its outcome; after, it says the payment's state.",
        "tags": [
          "payment"
        ],
        "parameters": [
          {
            "name": "paymentId",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "$ref": "#/components/parameters/X-User-Id"
          },
          {
            "$ref": "#/components/parameters/X-B3-TraceId"
          },
          {
            "$ref": "#/components/parameters/X-B3-SpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-ParentSpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-Sampled"
          },
          {
            "$ref": "#/components/parameters/X-B3-Flags"
          },
          {
            "$ref": "#/components/parameters/b3"
          },
          {
            "$ref": "#/components/parameters/traceparent"
          }
        ],
        "responses": {
          "200": {
            "description": "The challenge page",
            "headers": {
              "x-b3-traceid": {
                "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
                }
              },
              "x-b3-spanid": {
                "description": "The gateway's span.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-parentspanid": {
                "description": "The caller's span, when one came in.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-sampled": {
                "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
                "schema": {
                  "type": "string",
                  "pattern": "^[01]$"
                }
              },
              "traceparent": {
                "description": "The same trace context in W3C form.",
                "schema": {
                  "type": "string",
                  "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
                }
              },
              "x-sim-duration-ms": {
                "description": "The simulated time the request took, in ms.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              }
            },
            "content": {
              "text/html": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Error400"
          },
          "404": {
            "$ref": "#/components/responses/Error404"
          },
          "414": {
            "$ref": "#/components/responses/Error414"
          },
          "431": {
            "$ref": "#/components/responses/Error431"
          },
          "500": {
            "$ref": "#/components/responses/Error500"
          }
        }
      },
      "post": {
        "operationId": "answerChallenge",
        "summary": "The buyer's answer on the challenge page",
        "description": "Ends a REQUIRES_ACTION payment's challenge with \`outcome\` (pass: Complete, fail: Fail, abandon: Cancel), then answers a 303 to the pay's \`returnUrl\` with \`paymentId\` and \`status\` added to its query, or, without one, the page saying the result. A challenge already over is a 409 and changes nothing: a browser (its Accept starts with text/html, as a form's POST does) gets a page saying how it ended, any other client the envelope.",
        "tags": [
          "payment"
        ],
        "parameters": [
          {
            "name": "paymentId",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "name": "outcome",
            "in": "query",
            "required": true,
            "description": "The buyer's answer: pass (Complete), fail (Fail) or abandon (Cancel).",
            "schema": {
              "type": "string",
              "enum": [
                "pass",
                "fail",
                "abandon"
              ]
            }
          },
          {
            "$ref": "#/components/parameters/X-User-Id"
          },
          {
            "$ref": "#/components/parameters/X-B3-TraceId"
          },
          {
            "$ref": "#/components/parameters/X-B3-SpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-ParentSpanId"
          },
          {
            "$ref": "#/components/parameters/X-B3-Sampled"
          },
          {
            "$ref": "#/components/parameters/X-B3-Flags"
          },
          {
            "$ref": "#/components/parameters/b3"
          },
          {
            "$ref": "#/components/parameters/traceparent"
          }
        ],
        "responses": {
          "200": {
            "description": "The page saying the result, when the pay gave no returnUrl",
            "headers": {
              "x-b3-traceid": {
                "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
                }
              },
              "x-b3-spanid": {
                "description": "The gateway's span.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-parentspanid": {
                "description": "The caller's span, when one came in.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-sampled": {
                "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
                "schema": {
                  "type": "string",
                  "pattern": "^[01]$"
                }
              },
              "traceparent": {
                "description": "The same trace context in W3C form.",
                "schema": {
                  "type": "string",
                  "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
                }
              },
              "x-sim-duration-ms": {
                "description": "The simulated time the request took, in ms.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              }
            },
            "content": {
              "text/html": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "303": {
            "description": "Back to the pay's returnUrl; the body is empty",
            "headers": {
              "x-b3-traceid": {
                "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
                }
              },
              "x-b3-spanid": {
                "description": "The gateway's span.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-parentspanid": {
                "description": "The caller's span, when one came in.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-sampled": {
                "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
                "schema": {
                  "type": "string",
                  "pattern": "^[01]$"
                }
              },
              "traceparent": {
                "description": "The same trace context in W3C form.",
                "schema": {
                  "type": "string",
                  "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
                }
              },
              "x-sim-duration-ms": {
                "description": "The simulated time the request took, in ms.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              },
              "location": {
                "description": "The pay's returnUrl, with paymentId and status added to its query.",
                "schema": {
                  "type": "string"
                }
              }
            },
            "content": {
              "text/html": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "409": {
            "description": "The challenge is already over, and nothing changed: to a browser (Accept starting with text/html) a page saying how it ended, to any other client the envelope with code -1",
            "headers": {
              "x-b3-traceid": {
                "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
                }
              },
              "x-b3-spanid": {
                "description": "The gateway's span.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-parentspanid": {
                "description": "The caller's span, when one came in.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}$"
                }
              },
              "x-b3-sampled": {
                "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
                "schema": {
                  "type": "string",
                  "pattern": "^[01]$"
                }
              },
              "traceparent": {
                "description": "The same trace context in W3C form.",
                "schema": {
                  "type": "string",
                  "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
                }
              },
              "x-sim-duration-ms": {
                "description": "The simulated time the request took, in ms.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              }
            },
            "content": {
              "text/html": {
                "schema": {
                  "type": "string"
                }
              },
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorEnvelope"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Error400"
          },
          "404": {
            "$ref": "#/components/responses/Error404"
          },
          "414": {
            "$ref": "#/components/responses/Error414"
          },
          "431": {
            "$ref": "#/components/responses/Error431"
          },
          "500": {
            "$ref": "#/components/responses/Error500"
          }
        }
      }
    }
  },
  "components": {
    "schemas": {
      "NewOrder": {
        "type": "object",
        "required": [
          "userId",
          "price"
        ],
        "properties": {
          "userId": {
            "type": "string",
            "minLength": 1,
            "maxLength": 64,
            "pattern": "\\\\S"
          },
          "price": {
            "type": "number",
            "description": "Not above 0: code -1, price must be > 0"
          },
          "description": {
            "type": [
              "string",
              "null"
            ],
            "maxLength": 1000
          }
        }
      },
      "NewPayment": {
        "type": "object",
        "required": [
          "orderId",
          "amount",
          "paymentMethod"
        ],
        "properties": {
          "orderId": {
            "type": "string"
          },
          "amount": {
            "type": "number",
            "description": "Not above 0: code -1, amount must be > 0"
          },
          "paymentMethod": {
            "$ref": "#/components/schemas/PaymentMethod"
          }
        }
      },
      "Order": {
        "type": "object",
        "required": [
          "orderId",
          "userId",
          "price",
          "status",
          "description",
          "createdAt"
        ],
        "properties": {
          "orderId": {
            "type": "string",
            "pattern": "^ORD-[A-Z0-9]{8}$"
          },
          "userId": {
            "type": "string"
          },
          "price": {
            "type": "number",
            "exclusiveMinimum": 0
          },
          "status": {
            "type": "string",
            "enum": [
              "CREATED",
              "PAID"
            ]
          },
          "description": {
            "type": "string"
          },
          "createdAt": {
            "type": "integer",
            "description": "Unix time in ms"
          }
        }
      },
      "Payment": {
        "type": "object",
        "required": [
          "paymentId",
          "orderId",
          "amount",
          "status",
          "paymentMethod",
          "paidAt"
        ],
        "properties": {
          "paymentId": {
            "type": "string",
            "pattern": "^PAY-[A-Z0-9]{8}$"
          },
          "orderId": {
            "type": "string"
          },
          "amount": {
            "type": "number",
            "exclusiveMinimum": 0
          },
          "status": {
            "type": "string",
            "enum": [
              "SUCCESS",
              "REFUNDED"
            ]
          },
          "paymentMethod": {
            "$ref": "#/components/schemas/PaymentMethod"
          },
          "paidAt": {
            "type": "integer",
            "description": "Unix time in ms"
          }
        }
      },
      "BatchReport": {
        "type": "object",
        "required": [
          "count",
          "succeeded",
          "failed",
          "orderIds"
        ],
        "properties": {
          "count": {
            "type": "integer",
            "minimum": 1
          },
          "succeeded": {
            "type": "integer",
            "minimum": 0
          },
          "failed": {
            "type": "integer",
            "minimum": 0
          },
          "orderIds": {
            "type": "array",
            "items": {
              "type": "string",
              "pattern": "^ORD-[A-Z0-9]{8}$"
            }
          }
        }
      },
      "ErrorEnvelope": {
        "type": "object",
        "required": [
          "code",
          "msg",
          "data"
        ],
        "properties": {
          "code": {
            "type": "integer",
            "description": "The HTTP status; -1 on a 409, a business answer"
          },
          "msg": {
            "type": "string"
          },
          "data": {
            "type": "null"
          }
        }
      },
      "PaymentMethod": {
        "type": "string",
        "enum": [
          "CARD",
          "WALLET_A",
          "WALLET_B"
        ]
      }
    },
    "parameters": {
      "X-User-Id": {
        "name": "X-User-Id",
        "in": "header",
        "required": false,
        "description": "The caller's user: the log records' userId.",
        "schema": {
          "type": "string"
        }
      },
      "X-B3-TraceId": {
        "name": "X-B3-TraceId",
        "in": "header",
        "required": false,
        "description": "The trace id, 16 or 32 lower-case hex digits; anything else gets a fresh one.",
        "schema": {
          "type": "string"
        }
      },
      "X-B3-SpanId": {
        "name": "X-B3-SpanId",
        "in": "header",
        "required": false,
        "description": "The caller's span: the gateway's span becomes its child.",
        "schema": {
          "type": "string"
        }
      },
      "X-B3-ParentSpanId": {
        "name": "X-B3-ParentSpanId",
        "in": "header",
        "required": false,
        "description": "The caller's parent span.",
        "schema": {
          "type": "string"
        }
      },
      "X-B3-Sampled": {
        "name": "X-B3-Sampled",
        "in": "header",
        "required": false,
        "description": "0: log the request but record no spans.",
        "schema": {
          "type": "string"
        }
      },
      "X-B3-Flags": {
        "name": "X-B3-Flags",
        "in": "header",
        "required": false,
        "description": "1: debug, which implies sampled.",
        "schema": {
          "type": "string"
        }
      },
      "b3": {
        "name": "b3",
        "in": "header",
        "required": false,
        "description": "Single-header B3 context, after X-B3-* in precedence.",
        "schema": {
          "type": "string"
        }
      },
      "traceparent": {
        "name": "traceparent",
        "in": "header",
        "required": false,
        "description": "W3C trace context, after the B3 headers in precedence.",
        "schema": {
          "type": "string"
        }
      },
      "X-Sim-Outcome": {
        "name": "X-Sim-Outcome",
        "in": "header",
        "required": false,
        "description": "Decides this payment attempt instead of the seeded draw.",
        "schema": {
          "type": "string",
          "enum": [
            "success",
            "failure"
          ]
        }
      },
      "Idempotency-Key": {
        "name": "Idempotency-Key",
        "in": "header",
        "required": false,
        "description": "1 to 255 printable ASCII characters. The first request with a key runs and its answer (a success or a business answer, not a 4xx) is kept for 24 hours of the service's clock; the same request again gets that answer with idempotent-replayed: true and runs nothing; another method, path or body with the key is a 400.",
        "schema": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255,
          "pattern": "^[ -~]+$"
        }
      }
    },
    "responses": {
      "Error400": {
        "description": "Malformed request: msg names the field and the problem",
        "headers": {
          "x-b3-traceid": {
            "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
            }
          },
          "x-b3-spanid": {
            "description": "The gateway's span.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-parentspanid": {
            "description": "The caller's span, when one came in.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-sampled": {
            "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
            "schema": {
              "type": "string",
              "pattern": "^[01]$"
            }
          },
          "traceparent": {
            "description": "The same trace context in W3C form.",
            "schema": {
              "type": "string",
              "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
            }
          },
          "x-sim-duration-ms": {
            "description": "The simulated time the request took, in ms.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9]+$"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/ErrorEnvelope"
            }
          }
        }
      },
      "Error404": {
        "description": "No such route; msg offers the nearest one",
        "headers": {
          "x-b3-traceid": {
            "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
            }
          },
          "x-b3-spanid": {
            "description": "The gateway's span.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-parentspanid": {
            "description": "The caller's span, when one came in.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-sampled": {
            "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
            "schema": {
              "type": "string",
              "pattern": "^[01]$"
            }
          },
          "traceparent": {
            "description": "The same trace context in W3C form.",
            "schema": {
              "type": "string",
              "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
            }
          },
          "x-sim-duration-ms": {
            "description": "The simulated time the request took, in ms.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9]+$"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/ErrorEnvelope"
            }
          }
        }
      },
      "Error405": {
        "description": "Known path, other method; the allow header names it",
        "headers": {
          "x-b3-traceid": {
            "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
            }
          },
          "x-b3-spanid": {
            "description": "The gateway's span.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-parentspanid": {
            "description": "The caller's span, when one came in.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-sampled": {
            "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
            "schema": {
              "type": "string",
              "pattern": "^[01]$"
            }
          },
          "traceparent": {
            "description": "The same trace context in W3C form.",
            "schema": {
              "type": "string",
              "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
            }
          },
          "x-sim-duration-ms": {
            "description": "The simulated time the request took, in ms.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9]+$"
            }
          },
          "allow": {
            "description": "The method the path takes.",
            "schema": {
              "type": "string"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/ErrorEnvelope"
            }
          }
        }
      },
      "Error409": {
        "description": "The payment's state forbids it (the order's payment awaits its challenge): code -1, msg names the payment, and nothing changed",
        "headers": {
          "x-b3-traceid": {
            "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
            }
          },
          "x-b3-spanid": {
            "description": "The gateway's span.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-parentspanid": {
            "description": "The caller's span, when one came in.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-sampled": {
            "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
            "schema": {
              "type": "string",
              "pattern": "^[01]$"
            }
          },
          "traceparent": {
            "description": "The same trace context in W3C form.",
            "schema": {
              "type": "string",
              "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
            }
          },
          "x-sim-duration-ms": {
            "description": "The simulated time the request took, in ms.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9]+$"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/ErrorEnvelope"
            }
          }
        }
      },
      "Error413": {
        "description": "Body over 1 MiB",
        "headers": {
          "x-b3-traceid": {
            "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
            }
          },
          "x-b3-spanid": {
            "description": "The gateway's span.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-parentspanid": {
            "description": "The caller's span, when one came in.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-sampled": {
            "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
            "schema": {
              "type": "string",
              "pattern": "^[01]$"
            }
          },
          "traceparent": {
            "description": "The same trace context in W3C form.",
            "schema": {
              "type": "string",
              "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
            }
          },
          "x-sim-duration-ms": {
            "description": "The simulated time the request took, in ms.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9]+$"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/ErrorEnvelope"
            }
          }
        }
      },
      "Error414": {
        "description": "Path and query over 8 KiB",
        "headers": {
          "x-b3-traceid": {
            "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
            }
          },
          "x-b3-spanid": {
            "description": "The gateway's span.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-parentspanid": {
            "description": "The caller's span, when one came in.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-sampled": {
            "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
            "schema": {
              "type": "string",
              "pattern": "^[01]$"
            }
          },
          "traceparent": {
            "description": "The same trace context in W3C form.",
            "schema": {
              "type": "string",
              "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
            }
          },
          "x-sim-duration-ms": {
            "description": "The simulated time the request took, in ms.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9]+$"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/ErrorEnvelope"
            }
          }
        }
      },
      "Error415": {
        "description": "A body that is not application/json",
        "headers": {
          "x-b3-traceid": {
            "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
            }
          },
          "x-b3-spanid": {
            "description": "The gateway's span.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-parentspanid": {
            "description": "The caller's span, when one came in.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-sampled": {
            "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
            "schema": {
              "type": "string",
              "pattern": "^[01]$"
            }
          },
          "traceparent": {
            "description": "The same trace context in W3C form.",
            "schema": {
              "type": "string",
              "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
            }
          },
          "x-sim-duration-ms": {
            "description": "The simulated time the request took, in ms.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9]+$"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/ErrorEnvelope"
            }
          }
        }
      },
      "Error431": {
        "description": "Headers over 64 KiB together",
        "headers": {
          "x-b3-traceid": {
            "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
            }
          },
          "x-b3-spanid": {
            "description": "The gateway's span.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-parentspanid": {
            "description": "The caller's span, when one came in.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-sampled": {
            "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
            "schema": {
              "type": "string",
              "pattern": "^[01]$"
            }
          },
          "traceparent": {
            "description": "The same trace context in W3C form.",
            "schema": {
              "type": "string",
              "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
            }
          },
          "x-sim-duration-ms": {
            "description": "The simulated time the request took, in ms.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9]+$"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/ErrorEnvelope"
            }
          }
        }
      },
      "Error500": {
        "description": "Something broke inside the service",
        "headers": {
          "x-b3-traceid": {
            "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
            }
          },
          "x-b3-spanid": {
            "description": "The gateway's span.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-parentspanid": {
            "description": "The caller's span, when one came in.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-sampled": {
            "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
            "schema": {
              "type": "string",
              "pattern": "^[01]$"
            }
          },
          "traceparent": {
            "description": "The same trace context in W3C form.",
            "schema": {
              "type": "string",
              "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
            }
          },
          "x-sim-duration-ms": {
            "description": "The simulated time the request took, in ms.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9]+$"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/ErrorEnvelope"
            }
          }
        }
      },
      "Error507": {
        "description": "The service keeps its maxOrders already (delete orders or reset it), or its idempotencyKeys (retry without the key, or when keys expire)",
        "headers": {
          "x-b3-traceid": {
            "description": "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}([0-9a-f]{16})?$"
            }
          },
          "x-b3-spanid": {
            "description": "The gateway's span.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-parentspanid": {
            "description": "The caller's span, when one came in.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9a-f]{16}$"
            }
          },
          "x-b3-sampled": {
            "description": "1 when spans were recorded, 0 when the caller turned sampling off.",
            "schema": {
              "type": "string",
              "pattern": "^[01]$"
            }
          },
          "traceparent": {
            "description": "The same trace context in W3C form.",
            "schema": {
              "type": "string",
              "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$"
            }
          },
          "x-sim-duration-ms": {
            "description": "The simulated time the request took, in ms.",
            "schema": {
              "type": "string",
              "pattern": "^[0-9]+$"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/ErrorEnvelope"
            }
          }
        }
      }
    },
    "x-limits": {
      "bodyBytes": 1048576,
      "pathBytes": 8192,
      "headerBytes": 65536
    }
  }
}`;

/** The OpenAPI 3.1 document of the eight endpoints and the challenge page, as JSON text. */
export function openapi() {
  return DOCUMENT;
}
