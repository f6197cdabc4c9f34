; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let (($x242776 (or (= 0 (+ n 34)) (= 1 (+ n 34)) (= 15 (+ n 34)) (= 35 (+ n 34)) (= 5 (mod (+ n 34) 34)) (= 9 (mod (+ n 34) 34)) (= 21 (mod (+ n 34) 34)) (= 25 (mod (+ n 34) 34)) (= 29 (mod (+ n 34) 34)))))
(let (($x277820 (or (= 0 n) (= 1 n) (= 15 n) (= 35 n) (= 5 (mod n 34)) (= 9 (mod n 34)) (= 21 (mod n 34)) (= 25 (mod n 34)) (= 29 (mod n 34)))))
(let (($x47804 (= $x277820 $x242776)))
(let (($x244624 (>= n 53)))
(and $x244624 (or (and (distinct true true) true) (and true (not $x47804)))))))))
(check-sat)
