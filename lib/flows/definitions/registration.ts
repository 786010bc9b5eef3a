// Being written (issue 6): the registration flow.
export {};
