// the phone page
