// Being written (issue 6): the login flow.
export {};
